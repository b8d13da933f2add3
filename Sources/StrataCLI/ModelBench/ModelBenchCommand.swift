import ArgumentParser
import Foundation
import Strata
import StrataConformance
import StrataToolSupport

/// `strata-model-bench --backend <name>` (also reached as `strata model-bench`): the standard workload
/// through the model layer beside the same steps on the store, in one process, with the ratio. Build
/// with `swift build -c release --product strata-model-bench` (or `make model-bench`).
///
/// It is its own executable, beside `strata`, because it links the model layer, whose macros need
/// swift-syntax: compiled in release that took most of `make report`'s build, which needs none of it.
@main
struct ModelBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-model-bench", abstract: "Run the standard workload through the model layer and on the store directly, with the ratio (build with -c release).",
        discussion: """
            Each run measures the store level (StandardWorkload, as `strata bench`) and the model level (@Model
            objects, ModelContainer, ModelContext) on fresh stores, alternating which goes first; with --runs N
            every figure is the median of N runs. The last column is the model level's speed relative to the
            store level (rates: model/store; times: store/model); the goal is at least 0.5 for insert, scan and
            fetch-by-id (docs/benchmarks.md). filter is the process's first #Predicate fetch; filter-again the
            second, with another captured value, beside the store's second filter (an application's steady
            state). With --step S only that step of the --level chosen runs inside strata_measure and the
            other level is skipped, for callgrind:
              valgrind --tool=callgrind --collect-atstart=no --toggle-collect=strata_measure \\
                .build/release/strata-model-bench --backend sqlite --step scan --level model
            """)

    enum Level: String, ExpressibleByArgument, CaseIterable { case model, store }
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "The backend to measure.") var backend: String = "sqlite"
    @Option(help: "N, the number of items (a multiple of 100, at least 1,000).") var records: Int = 100_000
    @Option(help: "Run both levels this many times and report each figure's median.") var runs: Int = 1
    @Option(help: "Output format: text or json.") var format: Format = .text
    @Option(help: "Run only this step inside strata_measure, for callgrind (every step of --level still runs).") var step: String?
    @Option(help: "With --step: the level to measure (the other is skipped).") var level: Level = .model

    func validate() throws {
        guard records >= 1_000, records % 100 == 0 else { throw ValidationError("--records must be a multiple of 100 and at least 1000.") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1.") }
        if let step, !Self.steps.contains(step) { throw ValidationError("Unknown step '\(step)'. Steps: \(Self.steps.joined(separator: ", ")).") }
    }

    func run() throws {
        #if DEBUG
        FileHandle.standardError.write(Data("note: this is a debug build; figures are only meaningful with `make model-bench`.\n".utf8))
        #endif
        let chosen = try ModelBenchBackend.named(backend)
        let bracket = step.map(MeasuredStep.bracket(only:))
        var reports: [WorkloadReport] = []
        for round in 0..<runs {
            // `steps`: the model level; `baseline`: the store level.
            var report = WorkloadReport(backend: chosen.name, records: records, steps: [:], order: Self.steps + ["size"], version: StrataVersion.current, machine: .current, baseline: nil)
            func model() throws { if step == nil || level == .model { report.steps = try chosen.model(records, step == nil ? nil : bracket) } }
            func store() throws { if step == nil || level == .store { report.baseline = try chosen.store(records, step == nil ? nil : bracket).steps } }
            if round % 2 == 0 { try store(); try model() } else { try model(); try store() }
            reports.append(report)
        }
        let report = runs == 1 ? reports[0] : WorkloadReport.median(of: reports)
        switch format {
        case .text: print(Self.table(report))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }

    /// The timed steps: the workload's, with `filter-again` (the second `#Predicate` fetch of the
    /// process, another captured value) after `filter` (the first).
    static let steps: [String] = MeasuredStep.names.flatMap { $0 == "filter" ? [$0, ModelWorkload.filterAgainStep] : [$0] }

    /// Step, store-level figure, model-level figure, unit, and the model level's relative speed.
    static func table(_ report: WorkloadReport) -> String {
        var title = "\(report.backend) — standard workload through the model layer, N = \(report.records)"
        if let runs = report.runs, runs > 1 { title += ", medians of \(runs) runs" }
        var lines = [title, "", "step".padding(toLength: 18, withPad: " ", startingAt: 0) + "store".rightAligned(14) + "model".rightAligned(14) + "  unit          model/store speed"]
        func number(_ v: Double?) -> String { v.map { $0 >= 100 ? String(format: "%.0f", $0) : String(format: "%.3f", $0) } ?? "—" }
        for name in report.order {
            let model = report.steps[name], store = report.baseline?[name]
            guard let unit = (model ?? store)?.unit else { continue }
            var line = name.padding(toLength: 18, withPad: " ", startingAt: 0) + number(store?.value).rightAligned(14) + number(model?.value).rightAligned(14)
            line += "  " + unit.padding(toLength: 14, withPad: " ", startingAt: 0)
            if let speed = report.relativeSpeed(name) { line += String(format: "%.2f", speed) }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    /// Padded with spaces on the left to `width` characters.
    func rightAligned(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
