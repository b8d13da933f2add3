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

    /// History's cost is the median of each round's own ratio, rates turned into times, not the
    /// ratio of the two sides' medians; insert and update-one are held to 1.3×.
    @Test func historyCostIsTheMedianOfEachRoundsRatio() {
        func run(_ insert: Double, _ update: Double) -> WorkloadReport {
            WorkloadReport(
                backend: "x", records: 1_000,
                steps: ["insert": .init(value: insert, unit: "records/s"), "update-one": .init(value: update, unit: "ms (median)"), "size": .init(value: 100, unit: "bytes")],
                order: ["insert", "update-one", "size"], version: "0", machine: .current, baseline: nil)
        }
        // Rounds drift: off 1.0/2.0/4.0 ms, on 1.2/2.8/4.4 ms → ratios 1.2, 1.4, 1.1 → median 1.2,
        // where the medians' ratio would be 2.8 / 2.0 = 1.4.
        let off = [run(100, 1.0), run(50, 2.0), run(25, 4.0)]
        let on = [run(80, 1.2), run(40, 2.8), run(20, 4.4)]
        let report = HistoryCostReport(off: off, on: on)
        #expect(report.rounds == 3)
        #expect(abs((report.cost["update-one"] ?? 0) - 1.2) < 1e-9)
        #expect(abs((report.cost["insert"] ?? 0) - 1.25) < 1e-9)  // 100/80, 50/40, 25/20
        #expect(report.cost["size"] == 1)
        #expect(report.off["update-one"]?.value == 2.0 && report.on["update-one"]?.value == 2.8)
        let lines = report.table.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("update-one") && $0.hasSuffix("×1.20   limit ×1.30 met") }, "\(report.table)")
        #expect(lines.contains { $0.hasPrefix("size") && $0.hasSuffix("×1.00") }, "no limit, none shown: \(report.table)")
        let over = HistoryCostReport(off: [run(100, 1.0)], on: [run(100, 1.5)])
        #expect(over.table.contains("×1.50   limit ×1.30 not met"), "\(over.table)")
    }

    /// `--history-cost` runs both sides in this process and prints their comparison; it refuses
    /// the flags that would measure something else.
    @Test func historyCostRunsBothSidesInOneRun() throws {
        // The memory backend: the cheapest run of the workload (this is the tool's plumbing; what
        // history costs each backend is measured in release builds, docs/history.md "Cost").
        let run = try ChildProcess.run(BuiltProducts.strata, ["bench", "--backend", "memory", "--records", "1000", "--runs", "2", "--history-cost", "--format", "json"], errors: .discarded)
        #expect(run.status == 0)
        let report = try JSONDecoder().decode(HistoryCostReport.self, from: Data(run.output.utf8))
        #expect(report.rounds == 2 && report.backend == "memory" && report.durability == nil)
        for step in ["insert", "update-one", "update-batch", "cascade-delete"] {
            let cost = try #require(report.cost[step], "no cost for \(step)")
            #expect(cost > 0 && cost.isFinite, "\(step): \(cost)")
            #expect(report.off[step] != nil && report.on[step] != nil, "\(step): a side is missing")
        }
        for extra in [["--history"], ["--baseline"], ["--step", "insert"]] {
            #expect(try Self.bench(["--backend", "sqlite", "--records", "1000", "--history-cost"] + extra).status != 0, "\(extra)")
        }
    }

    @Test func aLevelTheBackendLacksIsRefusedAndMemoryHasNone() throws {
        #expect(try Self.bench(["--backend", "json", "--records", "1000", "--durability", "processCrash"]).status != 0)
        let memory = try Self.bench(["--backend", "memory", "--records", "1000"])
        #expect(memory.status == 0)
        #expect(memory.report != nil && memory.report?.durability == nil)
    }
}
