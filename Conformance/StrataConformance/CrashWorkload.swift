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

    /// Runs `executable arguments` (a writer saving generations) `rounds` times, killing it with
    /// SIGKILL after a different delay each time, and after each kill calls `reopen`, which must
    /// return the generation the store holds (throwing if it holds a mix). Returns the generations
    /// seen, which must never go back.
    public static func killRepeatedly(_ executable: URL, _ arguments: [String], rounds: Int, reopen: () throws -> Int) throws -> [Int] {
        var seen: [Int] = []
        for round in 0..<rounds {
            let writer = Process()
            writer.executableURL = executable
            writer.arguments = arguments
            writer.standardOutput = FileHandle.nullDevice
            try writer.run()
            usleep(UInt32(20_000 + (round * 37_000) % 180_000))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            let generation = try reopen()
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
