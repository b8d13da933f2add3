import Foundation
import Strata

/// Saves that make a crash visible: generation g sets `int = g` on every `Sample` and inserts the
/// tag `"g<g>"` in one save. Whatever moment a writer is killed at, a store that keeps the contract
/// reopens with every sample at one generation g and exactly the tags g0 … g<g>.
public enum CrashWorkload {
    /// How many samples each generation rewrites.
    public static let samples = 40

    /// Continues from the store's current generation for `saves` more saves, printing each one.
    public static func run<Store: DataStore>(_ store: Store, saves: Int) throws {
        let sampleEntity = try store.schema.requireEntity("Sample")
        let tagEntity = try store.schema.requireEntity("Tag")
        var current = try store.fetch(FetchDescriptor(entity: "Sample"))
        var generation = try check(store)
        if current.isEmpty {
            let fresh = try (0..<samples).map { try Store.Snapshot.inserting(sampleEntity, values: ["label": .string("s\($0)"), "int": 0, "string": .string(String(repeating: "x", count: 2_000))]) }
            let tag = try Store.Snapshot.inserting(tagEntity, values: ["name": "g0"])
            _ = try store.save(SaveRequest(inserted: fresh + [tag]))
            current = try store.fetch(FetchDescriptor(entity: "Sample"))
            generation = 0
            report(0)
        }
        for _ in 0..<saves {
            generation += 1
            let updated = try current.map { try $0.updating(["int": .int(Int64(generation))]) }
            let tag = try Store.Snapshot.inserting(tagEntity, values: ["name": .string("g\(generation)")])
            _ = try store.save(SaveRequest(inserted: [tag], updated: updated))
            current = updated
            report(generation)
        }
    }

    /// Runs `executable arguments` (a writer saving generations and printing `saved <g>` after each)
    /// `rounds` times and kills it with SIGKILL. A round never relies on a timer: it waits until the
    /// writer has *reported* a save beyond everything seen so far (one to three more, varying by
    /// round), then kills it after a random pause of up to 3 ms, so every kill lands while a save is
    /// in flight or just after it, however slowly the writer starts. After each kill `reopen` must return the
    /// generation the store holds (throwing if it holds a mix); that generation must be at least the
    /// last one the writer reported (a reported save survives) and never go back. Returns the
    /// generations seen. A writer that stops reporting for `stallLimit` fails the round instead of
    /// hanging the test.
    public static func killRepeatedly(
        _ executable: URL, _ arguments: [String], rounds: Int, seed: UInt64 = 1,
        stallLimit: Duration = .seconds(300), reopen: () throws -> Int
    ) throws -> [Int] {
        var seen: [Int] = []
        var random = SeededGenerator(state: seed)
        for round in 0..<rounds {
            let writer = Process()
            writer.executableURL = executable
            writer.arguments = arguments
            let output = Pipe()
            writer.standardOutput = output
            writer.standardError = FileHandle.nullDevice
            try writer.run()
            let watchdog = Watchdog(process: writer, limit: stallLimit)
            let floor = (seen.last ?? -1) + 1 + Int(random.next() % 3)
            let reader = LineReader(output.fileHandleForReading)
            var reported = -1
            while reported < floor, let line = reader.nextLine() {
                watchdog.progress()
                if line.hasPrefix("saved "), let g = Int(line.dropFirst(6)) { reported = g }
            }
            watchdog.stop()
            // Where inside the next save the kill lands varies with this pause; the outcome must not.
            usleep(UInt32(random.next() % 3_000))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            try? output.fileHandleForReading.close()
            guard reported >= floor else {
                throw WorkloadError("round \(round + 1): the writer ended before reporting generation \(floor) (last reported \(reported), exit \(writer.terminationStatus))")
            }
            let generation = try reopen()
            if generation < reported {
                throw WorkloadError("after kill \(round + 1) the store holds generation \(generation), but the writer had reported generation \(reported) as saved")
            }
            if let last = seen.last, generation < last {
                throw WorkloadError("after kill \(round + 1) the store went back from generation \(last) to \(generation)")
            }
            seen.append(generation)
        }
        return seen
    }

    private static func report(_ generation: Int) {
        FileHandle.standardOutput.write(Data("saved \(generation)\n".utf8))
    }

    /// The generation a store holds, or throws `WorkloadError` if it holds a mix of two.
    @discardableResult
    public static func check<Store: DataStore>(_ store: Store) throws -> Int {
        let samples = try store.fetch(FetchDescriptor(entity: "Sample"))
        let tags = try store.fetch(FetchDescriptor(entity: "Tag", sortBy: [SortKey("name")]))
        if samples.isEmpty {
            guard tags.isEmpty else { throw WorkloadError("\(tags.count) tags but no samples") }
            return -1
        }
        let generations = Set(try samples.map { try $0.value("int").int ?? -1 })
        guard generations.count == 1, let g = generations.first else { throw WorkloadError("samples of several generations: \(generations.sorted())") }
        guard samples.count == Self.samples else { throw WorkloadError("\(samples.count) samples, expected \(Self.samples)") }
        let names = Set(try tags.map { try $0.value("name").string ?? "" })
        guard names == Set((0...Int(g)).map { "g\($0)" }) else { throw WorkloadError("generation \(g) with tags \(names.sorted())") }
        return Int(g)
    }
}

/// Reads a pipe line by line, blocking; `nil` at end of file.
final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0

    init(_ handle: FileHandle) { self.handle = handle }

    func nextLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start > 65_536 { buffer.removeFirst(start); start = 0 }
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(contentsOf: chunk)
        }
    }
}

/// Kills a process that stops making progress for `limit`, so a hung writer fails a test instead of
/// hanging it. Progress is reported by the caller; the limit is a safety net, not a timing assumption.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var lastProgress = ContinuousClock.now
    private var stopped = false

    init(process: Process, limit: Duration) {
        let pid = process.processIdentifier
        Thread.detachNewThread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                let (done, idle) = lock.withLock { (stopped, ContinuousClock.now - lastProgress) }
                if done { return }
                if idle > limit { kill(pid, SIGKILL); return }
            }
        }
    }

    func progress() { lock.withLock { lastProgress = .now } }
    func stop() { lock.withLock { stopped = true } }
}

