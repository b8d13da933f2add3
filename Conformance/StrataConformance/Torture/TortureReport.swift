import Foundation

/// What `Torture.run` saw: kills, and every way a store broke the contract after one.
public struct TortureReport: Sendable {
    /// A way a trial can fail.
    public enum Failure: String, Sendable, CaseIterable {
        /// The store reopened holding a mix of generations (or notes of the wrong large save).
        case invariantViolation
        /// The store could not be opened after a kill.
        case unopenable
        /// The store holds an older generation than the writer had reported as saved.
        case lostReportedSave
        /// The store holds an older generation than after an earlier kill.
        case wentBack
        /// The writer could not run (it ended before reporting, or the final clean run failed).
        case writerFailure
    }

    /// Trials asked for.
    public var trials: Int
    /// The seed of the run.
    public var seed: UInt64
    /// Every `largeEvery`-th generation was a large save.
    public var largeEvery: Int
    /// Writers killed.
    public var kills = 0
    /// Kills placed inside a large save (the rest inside small ones).
    public var killsAimedAtLargeSaves = 0
    /// Kills after which the store held exactly the last reported generation, i.e. the save in
    /// flight was cut off: [small, large]. Shows the kills landed inside saves, not between them.
    public var savesCut = [0, 0]
    /// The highest generation a reopened store held.
    public var highestGeneration = -1
    /// Temporary files a kill left that were still there after a later save (or after the final
    /// clean writer run).
    public var leftoverTemporaryFiles = 0
    /// Failures by kind.
    public var failures: [Failure: Int] = [:]
    /// The first messages describing failures.
    public var problems: [String] = []

    /// Counts a failure and keeps its message (the first 20).
    mutating func record(_ failure: Failure, _ message: String) {
        failures[failure, default: 0] += 1
        if problems.count < 20 { problems.append(message) }
    }

    /// Whether the store kept the contract through every kill.
    public var passed: Bool { failures.values.allSatisfy { $0 == 0 } && leftoverTemporaryFiles == 0 }

    /// The report as an aligned text table.
    public func table(backend: String) -> String {
        func count(_ f: Failure) -> Int { failures[f] ?? 0 }
        let rows: [(String, String)] = [
            ("trials", "\(trials)"),
            ("kills", "\(kills)"),
            ("  aimed at large saves", "\(killsAimedAtLargeSaves) (save in flight lost: \(savesCut[1]))"),
            ("  aimed at small saves", "\(kills - killsAimedAtLargeSaves) (save in flight lost: \(savesCut[0]))"),
            ("highest generation", "\(highestGeneration)"),
            ("invariant violations", "\(count(.invariantViolation))"),
            ("unopenable stores", "\(count(.unopenable))"),
            ("leftover temporary files", "\(leftoverTemporaryFiles)"),
            ("lost reported saves", "\(count(.lostReportedSave))"),
            ("generations gone back", "\(count(.wentBack))"),
            ("writer failures", "\(count(.writerFailure))"),
            ("result", passed ? "PASS" : "FAIL"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        var lines = ["strata torture — \(backend), \(trials) trials, seed \(seed), a large save (\(CrashWorkload.bulkCount) records) every \(largeEvery) generations", ""]
        lines += rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
        if !problems.isEmpty { lines += ["", "problems:"] + problems.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }
}
