import Foundation
import Strata

/// The engine of `strata fuzz`: damages copies of a sample store, opens each in a child process,
/// and classifies what happened (see `FuzzOutcome`).
///
/// Works on any backend: the caller says how to write each generation of the sample, how to dump a
/// store in this process (for the originals), and how to start a child that opens a store and
/// writes its dump to a file (exit 0), or exits 65 after printing a `StrataError`, 66 after any
/// other error. A child is used so that a crash (a signal) or a hang (past `hangLimit`) is
/// observed instead of taking the fuzzer down.
public enum DamageFuzzer {
    /// What a run does.
    public struct Options: Sendable {
        /// How many damaged copies are opened.
        public var trials: Int
        /// The seed of every random choice.
        public var seed: UInt64
        /// The kinds of damage drawn from, uniformly.
        public var kinds: [DamageKind]
        /// A child still running after this long is killed and counted as a hang. Generous: it is
        /// a safety net for loops, not a speed goal.
        public var hangLimit: Duration
        /// Whether silent outcomes fail the run (false for a format without checksums).
        public var silentDamageIsFailure: Bool
        /// The files (by path relative to the store's folder) that the backend only ever appends
        /// to, such as a journal: a cut at their end is what a crash during an append leaves, so
        /// opening at an earlier save is then correct. For every other file a cut must be detected.
        public var isAppendOnly: @Sendable (_ file: String) -> Bool
        /// The file (by path relative to the store's folder) that holds the whole store, the
        /// backend's other files holding no data (a lock file): its stale copy is a consistent older
        /// store, counted as `staleStore` when the store opens exactly at that copy's save.
        public var holdsWholeStore: @Sendable (_ file: String) -> Bool

        /// Options for `trials` damaged opens.
        public init(
            trials: Int, seed: UInt64 = 1, kinds: [DamageKind] = DamageKind.allCases, hangLimit: Duration = .seconds(60),
            silentDamageIsFailure: Bool = true, isAppendOnly: @escaping @Sendable (_ file: String) -> Bool = { _ in false },
            holdsWholeStore: @escaping @Sendable (_ file: String) -> Bool = { _ in false }
        ) {
            self.trials = trials
            self.seed = seed
            self.kinds = kinds
            self.hangLimit = hangLimit
            self.silentDamageIsFailure = silentDamageIsFailure
            self.isAppendOnly = isAppendOnly
            self.holdsWholeStore = holdsWholeStore
        }
    }

    /// How to start a child that opens the store in `directory` and writes its dump to `output`.
    public typealias OpenCommand = (_ directory: URL, _ output: URL) -> (executable: URL, arguments: [String])

    /// The exit status of a child whose open failed with a `StrataError`.
    public static let strataErrorStatus: Int32 = 65
    /// The exit status of a child whose open failed with any other error.
    public static let otherErrorStatus: Int32 = 66

    /// Writes the sample (`DamageSample.generations` saves) in `workDirectory`, then runs the trials.
    ///
    /// - Parameters:
    ///   - build: opens the store in a directory, applies `DamageSample.write(generation:into:)`, closes it.
    ///   - dump: the `StoreDump.json` of the store in a directory, read in this process.
    public static func run(
        _ options: Options, in workDirectory: URL,
        build: (_ directory: URL, _ generation: Int) throws -> Void,
        dump: (_ directory: URL) throws -> String,
        open: OpenCommand,
        progress: (_ trial: Int, _ report: FuzzReport) -> Void = { _, _ in }
    ) throws -> FuzzReport {
        let files = FileManager.default
        let live = workDirectory.appendingPathComponent("sample")
        try? files.removeItem(at: workDirectory)
        try files.createDirectory(at: live, withIntermediateDirectories: true)
        var generations: [URL] = []
        var dumps: [String] = []
        for g in 0...DamageSample.generations {
            try build(live, g)
            let copy = workDirectory.appendingPathComponent("generation-\(g)")
            try files.copyItem(at: live, to: copy)
            generations.append(copy)
            // Dump a scratch copy, so whatever opening does cannot touch the originals.
            let scratch = workDirectory.appendingPathComponent("scratch")
            try? files.removeItem(at: scratch)
            try files.copyItem(at: copy, to: scratch)
            dumps.append(try dump(scratch))
        }
        let original = dumps.removeLast()
        let current = generations.removeLast()
        var report = FuzzReport(trials: options.trials, seed: options.seed, silentDamageIsFailure: options.silentDamageIsFailure)
        var random = SeededGenerator(state: options.seed)
        let trialDirectory = workDirectory.appendingPathComponent("trial")
        let output = workDirectory.appendingPathComponent("dump.json")
        for trial in 1...max(1, options.trials) where options.trials > 0 {
            try? files.removeItem(at: trialDirectory)
            try files.copyItem(at: current, to: trialDirectory)
            let kind = options.kinds[Int(random.next() % UInt64(options.kinds.count))]
            let damage = try Damage.apply(kind, to: trialDirectory, earlier: generations, random: &random)
            try? files.removeItem(at: output)
            let (executable, arguments) = open(trialDirectory, output)
            let crashLike = damage.leavesPrefix && options.isAppendOnly(damage.file)
            let staleStore = damage.kind == .staleFile && options.holdsWholeStore(damage.file) ? damage.staleGeneration : nil
            var (outcome, note) = try classify(ChildRun(executable, arguments, limit: options.hangLimit, in: workDirectory), crashLike: crashLike, output: output, original: original, earlier: dumps)
            if outcome == .rolledBack, let staleStore, note == "generation \(staleStore)" { outcome = .staleStore }
            report.record(trial, damage, outcome, note)
            progress(trial, report)
        }
        return report
    }

    /// - Parameter crashLike: the damage left a beginning of an append-only file, which a crash
    ///   during an append also leaves: an earlier save (or no save) is then the right state.
    private static func classify(_ child: ChildRun, crashLike: Bool, output: URL, original: String, earlier: [String]) throws -> (FuzzOutcome, String) {
        switch child.ending {
        case .hung: return (.hang, "")
        case .signal(let s): return (.crash, "signal \(s)")
        case .exit(DamageFuzzer.strataErrorStatus): return (.clearError, "")
        case .exit(0): break
        case .exit(let status): return (.untypedError, "status \(status): \(child.errorOutput.prefix(300))")
        }
        let loaded = try String(contentsOf: output, encoding: .utf8)
        if loaded == original { return (.identical, "") }
        if let g = earlier.firstIndex(of: loaded) { return crashLike ? (.tailCut, "generation \(g)") : (.rolledBack, "generation \(g)") }
        if isEmptyDump(loaded) { return crashLike ? (.tailCut, "before the first save") : (.silentlyEmpty, "") }
        return (.silentlyWrong, difference(loaded, original))
    }

    private static func isEmptyDump(_ text: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let entities = object["entities"] as? [String: [Any]]
        else { return false }
        return entities.values.allSatisfy(\.isEmpty)
    }

    /// The first line where two dumps differ, to point a person at the damage's effect.
    private static func difference(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(x.count, y.count) where i >= x.count || i >= y.count || x[i] != y[i] {
            let got = i < x.count ? x[i].trimmingCharacters(in: .whitespaces) : "(end)"
            let want = i < y.count ? y[i].trimmingCharacters(in: .whitespaces) : "(end)"
            return "dump line \(i + 1): \(got.prefix(80)) instead of \(want.prefix(80))"
        }
        return ""
    }
}

/// A child process run to its end or killed at a time limit; its standard error kept in a file
/// (a pipe could fill and stall the child, which would look like a hang).
struct ChildRun {
    enum Ending: Equatable {
        case exit(Int32)
        case signal(Int32)
        case hung
    }

    let ending: Ending
    let errorOutput: String

    init(_ executable: URL, _ arguments: [String], limit: Duration, in directory: URL) throws {
        let errors = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorHandle
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        if done.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            done.wait()
            ending = .hung
        } else {
            ending = process.terminationReason == .uncaughtSignal ? .signal(process.terminationStatus) : .exit(process.terminationStatus)
        }
        errorOutput = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    }
}
