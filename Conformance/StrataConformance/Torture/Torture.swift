import Foundation
import Strata

/// The engine of `strata torture`: kills a crash-workload writer with SIGKILL over and over, at
/// random moments inside small and large saves, and checks the store after every kill.
///
/// Works on any backend: the caller says how to start a writer (a process running
/// `CrashWorkload.run` on a directory, printing `saved <g>` after each save) and how to reopen the
/// store and read its generation (`CrashWorkload.check`). Kills are placed from observed events
/// only: a trial waits for the writer's report of generation g, then waits a random pause drawn
/// from how long saves were seen to take, so the kill lands inside save g + 1. The pause decides
/// only *where* the kill lands; the checks hold wherever it lands.
public enum Torture {
    /// What a run does.
    public struct Options: Sendable {
        /// How many times a writer is started and killed.
        public var trials: Int
        /// The seed of every random choice (which save to aim at, the pause).
        public var seed: UInt64
        /// Every `largeEvery`-th generation is a large save (`CrashWorkload.bulkCount` records).
        public var largeEvery: Int
        /// A writer silent for this long is killed and counted as a failure (a safety net only).
        public var stallLimit: Duration
        /// After this many kills the run goes on in a fresh store (0: one store for the whole run).
        ///
        /// Every check reads the whole store, history included, and history grows until deleted, so
        /// one store for 1,000 kills makes a run quadratic: a SQLite store with history held 134 MB
        /// after 110 kills and each check took seconds. A fresh store starts at generation -1 again.
        public var killsPerStore: Int

        /// Options for `trials` kills.
        public init(trials: Int, seed: UInt64 = 1, largeEvery: Int = 4, stallLimit: Duration = .seconds(120), killsPerStore: Int = 100) {
            self.trials = trials
            self.seed = seed
            self.largeEvery = largeEvery
            self.stallLimit = stallLimit
            self.killsPerStore = killsPerStore
        }
    }

    /// How to start a writer: the executable and its arguments for a store in `directory` that
    /// saves `saves` more generations with `largeEvery` large saves, then exits.
    public typealias WriterCommand = (_ directory: URL, _ saves: Int, _ largeEvery: Int) -> (executable: URL, arguments: [String])

    /// Runs the trials in fresh folders under `workDirectory` (created if missing, left in place).
    ///
    /// - Parameter reopen: opens the store in a directory and returns `CrashWorkload.check`'s
    ///   generation; a `WorkloadError` is an invariant violation, any other error an unopenable store.
    public static func run(
        _ options: Options, in workDirectory: URL, writer: WriterCommand,
        reopen: (_ directory: URL, _ largeEvery: Int) throws -> Int,
        progress: (_ trial: Int, _ report: TortureReport) -> Void = { _, _ in }
    ) throws -> TortureReport {
        var report = TortureReport(trials: options.trials, seed: options.seed, largeEvery: options.largeEvery)
        var random = SeededGenerator(state: options.seed)
        var storeNumber = 1
        func freshStore() throws -> URL {
            let dir = workDirectory.appendingPathComponent("store-\(storeNumber)")
            storeNumber += 1
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return dir
        }
        // A last writer saves twice and exits normally: nothing temporary may remain after it.
        func finish(_ store: URL) throws {
            let (executable, arguments) = writer(store, 2, options.largeEvery)
            let last = try WriterProcess(executable, arguments, stallLimit: options.stallLimit)
            let status = last.finish()
            if status != 0 {
                report.record(.writerFailure, "the final writer (two saves, no kill) ended with status \(status)")
            }
            let remaining = TemporaryFile.all(in: store)
            report.leftoverTemporaryFiles += remaining.count
            if !remaining.isEmpty {
                report.problems.append("after a clean writer run, temporary files remain: \(remaining.map(\.name).joined(separator: ", "))")
            }
        }
        var store = try freshStore()
        var stored = -1  // the generation the store held at the last check
        var leftBehind: [TemporaryFile] = []
        var gaps = SaveGaps()
        let endless = 1_000_000_000
        for trial in 0..<options.trials {
            if options.killsPerStore > 0, trial > 0, trial % options.killsPerStore == 0 {
                // A clean writer run ends the store, as it ends the run; then it is not needed.
                try finish(store)
                try? FileManager.default.removeItem(at: store)
                store = try freshStore()
                stored = -1
                leftBehind = []
            }
            let (executable, arguments) = writer(store, endless, options.largeEvery)
            let process = try WriterProcess(executable, arguments, stallLimit: options.stallLimit)
            let aimLarge = options.largeEvery > 0 && random.next() % 2 == 0
            var floor = stored + 1 + Int(random.next() % 3)
            if aimLarge { while (floor + 1) % options.largeEvery != 0 { floor += 1 } }
            var checkedLeftovers = false
            let reached = process.waitForReport(atLeast: floor) { generation, gap in
                if let gap { gaps.record(gap, large: options.largeEvery > 0 && generation % options.largeEvery == 0) }
                if !checkedLeftovers {
                    // A save has completed since the last kill: what that kill left must be gone.
                    checkedLeftovers = true
                    report.leftoverTemporaryFiles += leftBehind.filter(\.stillThere).count
                    leftBehind = []
                }
            }
            let limit = gaps.typical(large: aimLarge)
            let pause = limit.microseconds == 0 ? 0 : Int(random.next() % UInt64(limit.microseconds + 1))
            usleep(UInt32(clamping: pause))
            process.kill()
            report.kills += 1
            if aimLarge { report.killsAimedAtLargeSaves += 1 }
            guard reached else {
                report.record(.writerFailure, "trial \(trial + 1): the writer ended before reporting generation \(floor) (last reported \(process.reported), status \(process.process.terminationStatus))")
                store = try freshStore()
                stored = -1
                leftBehind = []
                continue
            }
            do {
                let generation = try reopen(store, options.largeEvery)
                if generation < process.reported {
                    report.record(.lostReportedSave, "trial \(trial + 1): the writer reported generation \(process.reported), the store holds \(generation)")
                }
                if generation < stored {
                    report.record(.wentBack, "trial \(trial + 1): the store went back from generation \(stored) to \(generation)")
                }
                if generation == process.reported { report.savesCut[aimLarge ? 1 : 0] += 1 }
                stored = max(stored, generation)
                report.highestGeneration = max(report.highestGeneration, generation)
                leftBehind = TemporaryFile.all(in: store)
            } catch let error as WorkloadError {
                report.record(.invariantViolation, "trial \(trial + 1): \(error)")
                store = try freshStore()
                stored = -1
                leftBehind = []
            } catch {
                report.record(.unopenable, "trial \(trial + 1): \(error)")
                store = try freshStore()
                stored = -1
                leftBehind = []
            }
            progress(trial + 1, report)
        }
        try finish(store)
        return report
    }
}

/// How long saves were seen to take (time between two reports), small and large apart, so a
/// kill's pause can cover a whole save of either kind.
struct SaveGaps {
    private var last: [Duration?] = [nil, nil]

    mutating func record(_ gap: Duration, large: Bool) { last[large ? 1 : 0] = gap }

    /// Slightly more than the last save of that kind took; a guess before any was seen.
    func typical(large: Bool) -> Duration {
        (last[large ? 1 : 0] ?? (large ? .milliseconds(50) : .milliseconds(3))) * 1.2
    }
}

extension Duration {
    var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}

/// A file a backend writes before renaming it into place: by the convention the torture tool
/// checks, its name contains `.tmp` (`store.json.tmp-<pid>`). Identified by name and inode, so a
/// new temporary file of the same name is not mistaken for one a kill left behind.
struct TemporaryFile {
    let path: String
    let inode: UInt64
    var name: String { (path as NSString).lastPathComponent }

    static func isTemporary(_ name: String) -> Bool { name.contains(".tmp") }

    /// The temporary files under `directory`, recursively.
    static func all(in directory: URL) -> [TemporaryFile] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var found: [TemporaryFile] = []
        while let relative = walker.nextObject() as? String {
            guard isTemporary((relative as NSString).lastPathComponent) else { continue }
            let path = directory.appendingPathComponent(relative).path
            var info = stat()
            if stat(path, &info) == 0 { found.append(TemporaryFile(path: path, inode: UInt64(info.st_ino))) }
        }
        return found
    }

    /// Whether this very file (same inode) is still where it was.
    var stillThere: Bool {
        var info = stat()
        return stat(path, &info) == 0 && UInt64(info.st_ino) == inode
    }
}
