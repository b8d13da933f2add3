import Foundation
import StrataConformance
import StrataTestSupport
import Testing

/// The benchmark's plumbing: medians, relative speeds, and the raw baselines really running.
struct BenchTests {
    static func report(_ steps: [String: Double], baseline: [String: Double]? = nil) -> WorkloadReport {
        func figures(_ values: [String: Double]) -> [String: WorkloadReport.Figure] {
            values.mapValues { .init(value: $0, unit: "records/s") }.merging(["reopen": .init(value: values["reopen"] ?? 1, unit: "ms")]) { _, new in new }
        }
        return WorkloadReport(
            backend: "x", records: 1_000, steps: figures(steps), order: ["insert", "reopen"], version: "0", machine: .current,
            baseline: baseline.map(figures))
    }

    @Test func theMedianIsTakenStepByStep() {
        let runs = [Self.report(["insert": 3, "reopen": 9]), Self.report(["insert": 1, "reopen": 5]), Self.report(["insert": 2, "reopen": 7])]
        let median = WorkloadReport.median(of: runs)
        #expect(median.steps["insert"]?.value == 2)
        #expect(median.steps["reopen"]?.value == 7)
        #expect(median.runs == 3)
        #expect(WorkloadReport.median(of: Array(runs.prefix(2))).steps["insert"]?.value == 2)  // even count: the mean of the middle two
    }

    @Test func relativeSpeedIsAboveOneWhenFasterWhateverTheUnit() {
        let report = Self.report(["insert": 200, "reopen": 2], baseline: ["insert": 100, "reopen": 4])
        #expect(report.relativeSpeed("insert") == 2)  // twice the rate
        #expect(report.relativeSpeed("reopen") == 2)  // half the time
        #expect(report.relativeSpeed("scan") == nil)
    }

    @Test(arguments: ["sqlite", "memory"])
    func theBaselineRunsEveryStepBesideTheBackend(_ backend: String) throws {
        let (status, printed) = try Self.bench(["--backend", backend, "--records", "1000", "--baseline"])
        #expect(status == 0)
        let report = try #require(printed)
        let baseline = try #require(report.baseline)
        for step in ["insert", "fetch-by-id", "scan", "filter", "update-one", "update-batch", "unique-violation", "cascade-delete"] {
            let figure = try #require(baseline[step], "\(backend): no baseline figure for \(step)")
            #expect(figure.value > 0 && figure.value.isFinite, "\(backend) \(step): \(figure.value)")
            #expect(figure.unit == report.steps[step]?.unit, "\(backend) \(step): units differ")
        }
    }

    /// `strata bench` with `arguments`: its exit status and its JSON report, if it printed one.
    static func bench(_ arguments: [String]) throws -> (status: Int32, report: WorkloadReport?) {
        let run = try ChildProcess.run(BuiltProducts.strata, ["bench"] + arguments + ["--format", "json"], errors: .discarded)
        return (run.status, try? JSONDecoder().decode(WorkloadReport.self, from: Data(run.output.utf8)))
    }

    /// Every figure says the durability it was measured at; SQLite and LMDB run at both levels (their
    /// baselines with them), the file backends only at powerLoss, the memory backend at none.
    @Test(arguments: [("sqlite", "processCrash"), ("sqlite", "powerLoss"), ("lmdb", "processCrash"), ("json", "powerLoss")])
    func theReportStatesItsDurability(_ backend: String, _ level: String) throws {
        let (status, report) = try Self.bench(["--backend", backend, "--records", "1000", "--durability", level] + (backend == "json" ? [] : ["--baseline"]))
        #expect(status == 0)
        let measured = try #require(report)
        #expect(measured.durability?.rawValue == level)
        #expect(measured.table.contains("durability: \(level)"))
        if backend != "json" { #expect(measured.baseline?["update-one"].map { $0.value > 0 } == true) }
    }

    /// Each step with a goal against its raw engine shows it beside the ratio, met or not.
    @Test func theTableShowsEachGoalMetOrNot() {
        func figure(_ value: Double, _ unit: String) -> WorkloadReport.Figure { .init(value: value, unit: unit) }
        let report = WorkloadReport(
            backend: "lmdb", records: 10, steps: ["scan": figure(100, "records/s"), "fetch-by-id": figure(50, "lookups/s"), "filter": figure(2, "ms")],
            order: ["scan", "fetch-by-id", "filter"], version: "test", machine: .current,
            baseline: ["scan": figure(200, "records/s"), "fetch-by-id": figure(100, "lookups/s"), "filter": figure(1, "ms")])
        let lines = report.table.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("scan") && $0.hasSuffix("speed ×0.50   goal ≥0.50 met") }, "\(report.table)")
        #expect(lines.contains { $0.hasPrefix("fetch-by-id") && $0.hasSuffix("speed ×0.50   goal ≥0.60 not met") }, "\(report.table)")
        #expect(lines.contains { $0.hasPrefix("filter") && $0.hasSuffix("speed ×0.50") }, "no goal, none shown: \(report.table)")
    }

    @Test func aLevelTheBackendLacksIsRefusedAndMemoryHasNone() throws {
        #expect(try Self.bench(["--backend", "json", "--records", "1000", "--durability", "processCrash"]).status != 0)
        let memory = try Self.bench(["--backend", "memory", "--records", "1000"])
        #expect(memory.status == 0)
        #expect(memory.report != nil && memory.report?.durability == nil)
    }
}
