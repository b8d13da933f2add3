import Foundation

/// What opening a damaged store led to.
public enum FuzzOutcome: String, CaseIterable, Sendable, Hashable {
    /// The open failed with a `StrataError`: the damage was detected and reported.
    case clearError = "clear error"
    /// The store opened and its whole dump equals the original: the damaged bytes carried no data
    /// (a lock file, padding, free pages), or a stale copy was identical to the current file.
    case identical
    /// An append-only file (a journal) cut short, or replaced by an older copy, which is the same
    /// thing for a file that only grows, and the store opened exactly at an earlier save: what a
    /// crash during an append leaves, which no format can tell apart.
    case tailCut = "tail cut = earlier save"
    /// The file that holds the whole store (the backend's other files hold no data) was replaced by
    /// its older copy, and the store opened exactly at that copy's save: a consistent older store,
    /// which no format can tell from the current one (a restored backup looks the same). Counted
    /// apart, never a failure.
    case staleStore = "stale whole-store copy"
    /// The store opened exactly at an earlier save after damage a crash cannot cause: saves lost silently.
    case rolledBack = "silently earlier save"
    /// The store opened with no records at all, without an error.
    case silentlyEmpty = "silently empty"
    /// The store opened with content that is neither the original nor an earlier save.
    case silentlyWrong = "silently wrong"
    /// The open failed with an error outside the `StrataError` taxonomy.
    case untypedError = "untyped error"
    /// The process opening the store died by a signal (a trap, a stack overflow).
    case crash
    /// The process opening the store did not finish within the limit.
    case hang

    /// A damaged store that opened without an error but lost or changed data.
    public var isSilent: Bool { self == .rolledBack || self == .silentlyEmpty || self == .silentlyWrong }

    /// Whether this outcome fails a run: crashes, hangs and untyped errors always; silent
    /// outcomes when the backend's format is expected to detect damage.
    public func isFailure(silentDamageIsFailure: Bool) -> Bool {
        switch self {
        case .clearError, .identical, .tailCut, .staleStore: false
        case .rolledBack, .silentlyEmpty, .silentlyWrong: silentDamageIsFailure
        case .untypedError, .crash, .hang: true
        }
    }
}

/// What `DamageFuzzer.run` saw: outcomes per damage kind, and the trials that failed.
public struct FuzzReport: Sendable {
    /// Trials run.
    public var trials: Int
    /// The seed of the run.
    public var seed: UInt64
    /// Whether silent outcomes fail the run (false for formats without checksums, e.g. SQLite's).
    public var silentDamageIsFailure: Bool
    /// How many trials of each kind ended in each outcome.
    public var counts: [DamageKind: [FuzzOutcome: Int]] = [:]
    /// The first failing trials (and, where silence is allowed, the first silent ones), described.
    public var examples: [String] = []

    mutating func record(_ trial: Int, _ damage: Damage, _ outcome: FuzzOutcome, _ note: String) {
        counts[damage.kind, default: [:]][outcome, default: 0] += 1
        if outcome.isFailure(silentDamageIsFailure: silentDamageIsFailure) || outcome.isSilent || outcome == .untypedError, examples.count < 25 {
            examples.append("trial \(trial): \(damage) → \(outcome.rawValue)\(note.isEmpty ? "" : ": " + note)")
        }
    }

    /// Trials per outcome, over every kind.
    public func total(_ outcome: FuzzOutcome) -> Int { counts.values.reduce(0) { $0 + ($1[outcome] ?? 0) } }

    /// Trials whose outcome fails the run.
    public var failures: Int {
        FuzzOutcome.allCases.filter { $0.isFailure(silentDamageIsFailure: silentDamageIsFailure) }.reduce(0) { $0 + total($1) }
    }

    /// Whether no trial failed.
    public var passed: Bool { failures == 0 }

    /// The report as a text table: one row per damage kind, one column per outcome.
    public func table(backend: String) -> String {
        let outcomes = FuzzOutcome.allCases
        let header = ["damage"] + outcomes.map(\.rawValue) + ["trials"]
        var rows: [[String]] = []
        for kind in DamageKind.allCases {
            guard let byOutcome = counts[kind] else { continue }
            rows.append([kind.rawValue] + outcomes.map { "\(byOutcome[$0] ?? 0)" } + ["\(byOutcome.values.reduce(0, +))"])
        }
        rows.append(["total"] + outcomes.map { "\(total($0))" } + ["\(trials)"])
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in c == 0 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[c] - cell.count) + cell }.joined(separator: "  ")
        }
        var lines = ["strata fuzz — \(backend), \(trials) trials, seed \(seed)", "", line(header)] + rows.map(line)
        let silent = outcomes.filter(\.isSilent).reduce(0) { $0 + total($1) }
        if !silentDamageIsFailure {
            lines += ["", "silent outcomes: \(silent) — not counted as failures: this format keeps no checksums (see docs/reliability.md)"]
        }
        lines += ["", "result: \(passed ? "PASS" : "FAIL (\(failures) failing trial(s))")"]
        if !examples.isEmpty { lines += ["", "trials to look at:"] + examples.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }
}
