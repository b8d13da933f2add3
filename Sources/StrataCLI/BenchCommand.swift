import ArgumentParser
import Foundation
import StrataBuiltinBackends
import Strata
import StrataConformance
import StrataToolSupport

/// `strata bench --backend <name>`: the standard workload of `docs/workload.md`. Build with `-c release`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Run the standard benchmark workload (docs/workload.md) on a built-in backend (build with -c release).",
        discussion: """
            With --runs N every figure is the median of N runs, the backend and its baseline taking turns, so
            the ratios come from one session on one machine. With --step S only that step runs inside the C
            function strata_measure, so an instruction count covers exactly it:
              valgrind --tool=callgrind --collect-atstart=no --toggle-collect=strata_measure \\
                .build/release/strata bench --backend sqlite --records 100000 --step fetch-by-id [--baseline]
            (see docs/benchmarks.md).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "The backend to measure.") var backend: String
    @Option(help: "The PostgreSQL server of the postgres backend (a postgresql:// URL); default: STRATA_POSTGRES_URL, else the PG* variables.") var url: String?
    @Option(help: "N, the number of items (a multiple of 100, at least 1,000).") var records: Int = 100_000
    @Option(help: "Output format: text or json.") var format: Format = .text
    @Flag(help: "Also run the same steps on the raw engine underneath (C for sqlite and lmdb, a dictionary floor for memory), in this run, for ratios.") var baseline = false
    @Option(help: "Run the workload this many times and report each figure's median.") var runs: Int = 1
    @Option(help: "Run only this step inside strata_measure, for callgrind (every step still runs); 'all' runs each step inside it (make perfcheck).") var step: String?
    @Flag(help: "With --step and --baseline: measure only the baseline (skip the backend).") var baselineOnly = false
    @Flag(help: "Open the stores with recordsHistory, so every save also records its history transaction (what recording costs: compare with a run without).") var history = false
    @Flag(help: "Measure what recording history costs: each of --runs rounds runs the workload with history off and with it on (alternating which goes first) and the table gives each step's medians and cost, the median of the rounds' time-with ÷ time-without (docs/history.md, \"Cost\").") var historyCost = false
    @Option(help: "What a returned save must survive: powerLoss (every persistent backend's default) or processCrash (SQLite synchronous = NORMAL, LMDB MDB_NOMETASYNC; the raw baseline runs at the same level).") var durability: SaveDurability = .powerLoss

    static let steps = MeasuredStep.names

    func validate() throws {
        guard records >= 1_000, records % 100 == 0 else { throw ValidationError("--records must be a multiple of 100 and at least 1000.") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1.") }
        if let step, !Self.steps.contains(step), step != MeasuredStep.all { throw ValidationError("Unknown step '\(step)'. Steps: \(Self.steps.joined(separator: ", ")).") }
        if baselineOnly, !baseline { throw ValidationError("--baseline-only needs --baseline.") }
        if historyCost, history || baseline || step != nil {
            throw ValidationError("--history-cost runs both sides itself and times every step plainly: leave out --history, --baseline and --step.")
        }
        let levels = BenchDurability.levels(of: backend)
        if backend == "postgres", durability != .powerLoss {
            throw ValidationError("The postgres backend's durability is its server's (fsync, synchronous_commit), not the client's: the figures say which level the server gives.")
        }
        if durability != .powerLoss, !levels.contains(durability) {
            throw ValidationError(levels.isEmpty ? "The \(backend) backend keeps nothing past its process: it has no durability level." : "The \(backend) backend syncs every save: it runs only at powerLoss, which also survives a process crash.")
        }
    }

    func run() throws {
        if let url { PostgresServer.use(url) }
        #if DEBUG
        FileHandle.standardError.write(Data("note: this is a debug build; figures are only meaningful with `swift run -c release strata bench`.\n".utf8))
        #endif
        let chosen = try BuiltinBackend.named(backend)
        if historyCost { return try printHistoryCost(of: chosen) }
        let raw = try baseline ? chosen.baseline ?? { throw ValidationError("The \(chosen.name) backend has no raw engine baseline.") }() : nil
        var reports: [WorkloadReport] = []
        for _ in 0..<runs {
            var report: WorkloadReport
            if baselineOnly {
                report = WorkloadReport(backend: chosen.name, records: records, steps: [:], order: Self.steps, version: StrataVersion.current, machine: .current, baseline: nil)
                report.durability = BenchDurability.levels(of: chosen.name).isEmpty ? nil : durability
            } else {
                report = try chosen.bench(records, step.map(Self.bracket(only:)), durability, history)
            }
            if chosen.name == "postgres" { report.durability = PostgresBaseline.serverDurability }
            if let raw { report.baseline = try raw(records, step, durability) }
            reports.append(report)
        }
        let report = runs == 1 ? reports[0] : WorkloadReport.median(of: reports)
        try output(report, table: report.table)
    }

    /// Prints `value` as `table` or as JSON, as `--format` asks.
    private func output(_ value: some Encodable, table: String) throws {
        switch format {
        case .text: print(table)
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(value), as: UTF8.self))
        }
    }

    /// Runs `runs` rounds of the workload with history off and on, the side that goes first
    /// alternating from round to round, and prints their comparison.
    private func printHistoryCost(of chosen: BuiltinBackend) throws {
        var off: [WorkloadReport] = []
        var on: [WorkloadReport] = []
        for round in 0..<runs {
            for recording in round.isMultiple(of: 2) ? [false, true] : [true, false] {
                var report = try chosen.bench(records, nil, durability, recording)
                if chosen.name == "postgres" { report.durability = PostgresBaseline.serverDurability }
                if recording { on.append(report) } else { off.append(report) }
            }
        }
        let comparison = HistoryCostReport(off: off, on: on)
        try output(comparison, table: comparison.table)
    }

    /// A bracket that runs the chosen step inside `strata_measure` and every other step plainly.
    static func bracket(only chosen: String) -> StandardWorkload.StepBracket { MeasuredStep.bracket(only: chosen) }
}
