import Foundation
import Strata

/// `strata powerloss`: runs a writer under the recorder (`PowerLossRecorder`), then builds crash
/// states from its log (`PowerLossState`) and opens each one.
///
/// Every state must open (or hold no store yet, before the first save was acknowledged) with one
/// whole generation of `CrashWorkload`. At `SaveDurability.powerLoss` it must hold every save
/// acknowledged before the power loss and at most the one save then under way; at
/// `.processCrash` it may have lost acknowledged saves, which are counted, but never a whole save
/// torn or the store unopenable.
public enum PowerLossTester {
    /// What to run.
    public struct Options: Sendable {
        /// How many crash states are built and opened.
        public var trials: Int
        /// The seed of every choice (where the power fails, which unsynced changes survive).
        public var seed: UInt64
        /// The writer's saves after the first (`CrashWorkload`), and how often a large one.
        public var saves: Int
        /// Every `largeEvery`-th save is a large one (0: none).
        public var largeEvery: Int
        /// Whether an acknowledged save may be lost (the `.processCrash` level).
        public var losingSavesAllowed: Bool
        /// The options of a run.
        public init(trials: Int, seed: UInt64, saves: Int, largeEvery: Int, losingSavesAllowed: Bool) {
            self.trials = trials
            self.seed = seed
            self.saves = saves
            self.largeEvery = largeEvery
            self.losingSavesAllowed = losingSavesAllowed
        }
    }

    /// What the run found.
    public struct Report: Sendable {
        /// The steps the writer's log holds, and how many of them are syncs.
        public var steps = 0, syncs = 0, acknowledged = 0
        /// Crash states opened.
        public var states = 0
        /// States holding exactly the saves acknowledged before the power loss.
        public var exact = 0
        /// States holding the save under way as well.
        public var withSaveUnderWay = 0
        /// States with no store yet (before the first save was acknowledged).
        public var noStoreYet = 0
        /// States missing acknowledged saves, and how many saves they lost in all.
        public var lostStates = 0, lostSaves = 0
        /// Violations, each described.
        public var violations: [String] = []

        /// Whether the run found no violation.
        public var passed: Bool { violations.isEmpty }

        /// The report as a table.
        public func table(backend: String, level: String) -> String {
            var lines = [
                "power loss on \(backend) (durability \(level))",
                "writer log steps          \(steps) (\(syncs) syncs, \(acknowledged) saves acknowledged)",
                "crash states checked      \(states)",
                "  all acknowledged saves  \(exact)",
                "  + the save under way    \(withSaveUnderWay)",
                "  no store yet            \(noStoreYet)",
                "  lost acknowledged saves \(lostStates) states, \(lostSaves) saves",
                "violations                \(violations.count)",
            ]
            lines += violations.prefix(10).map { "  \($0)" }
            lines.append("result: \(passed ? "PASS" : "FAIL")")
            return lines.joined(separator: "\n")
        }
    }

    /// How a crash state opened: the generation it holds (-1: an empty store), or a thrown error
    /// (unopenable or torn; `ioFailure` is "no store", accepted before the first acknowledged save).
    public typealias Check = (_ folder: URL) throws -> Int

    /// Records `writer` (an executable and its arguments, writing its store into `folder`) and
    /// checks `options.trials` crash states of it with `check`.
    public static func run(_ options: Options, recorder: URL, in work: URL, writer: (_ folder: URL) -> (URL, [String]), check: Check) throws -> Report {
        let folder = work.appendingPathComponent("recorded")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let logFile = work.appendingPathComponent("writer.log")
        let (executable, arguments) = writer(folder)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = recorder.path
        environment["STRATA_POWERLOSS_ROOT"] = folder.path
        environment["STRATA_POWERLOSS_LOG"] = logFile.path
        environment["STRATA_POWERLOSS_MARKS"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw WorkloadError("the recorded writer exited with status \(process.terminationStatus)") }
        let root = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        let log = try PowerLossLog(Array(try Data(contentsOf: logFile)), root: root)
        var report = Report()
        report.steps = log.steps.count
        report.syncs = log.syncs
        report.acknowledged = log.steps.count { if case .acknowledged = $0 { true } else { false } }
        guard report.acknowledged > 0 else { throw WorkloadError("the recorder saw no acknowledged save (is LD_PRELOAD honoured?)") }
        var random = SeededGenerator(state: options.seed)
        let states = work.appendingPathComponent("states")
        for trial in 0..<options.trials {
            let cut = Int.random(in: 0...log.steps.count, using: &random)
            let state = PowerLossState(log, cut: cut, random: &random)
            let stateFolder = states.appendingPathComponent("\(trial)")
            try? FileManager.default.removeItem(at: stateFolder)
            try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
            try state.write(into: stateFolder)
            let (acknowledged, another) = log.acknowledged(before: cut)
            report.states += 1
            let where_ = "trial \(trial), power lost before step \(cut) of \(log.steps.count), save \(acknowledged) acknowledged"
            var keep = false
            do {
                switch try check(stateFolder) {
                case let g where g == acknowledged: report.exact += 1
                case let g where g == acknowledged + 1 && another: report.withSaveUnderWay += 1
                case let g where g < acknowledged:
                    report.lostStates += 1
                    report.lostSaves += acknowledged - g
                    if !options.losingSavesAllowed {
                        report.violations.append("\(where_): holds generation \(g), acknowledged saves lost")
                        keep = true
                    }
                case let g:
                    report.violations.append("\(where_): holds generation \(g), never saved before the cut")
                    keep = true
                }
            } catch let error as StrataError where error.code == .ioFailure && acknowledged < 0 {
                report.noStoreYet += 1
            } catch {
                report.violations.append("\(where_): \(error)")
                keep = true
            }
            if !keep { try? FileManager.default.removeItem(at: stateFolder) }
        }
        return report
    }
}
