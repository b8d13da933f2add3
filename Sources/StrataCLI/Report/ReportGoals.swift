import Foundation
import StrataConformance

/// The report's goals section: every speed goal (`WorkloadGoals`, docs/benchmarks.md) beside the ratio
/// this report measured, met or not — what `strata bench --baseline` prints under each table, on the
/// page. A backend's goals are against its raw engine at the report's N; the peers' goals (when the
/// report has `--peers`) are Strata's model layer against GRDB's hand-written records and against
/// raw C, all from the same run.
extension ReportTables {
    func goalsTable() -> ReportSection? {
        var rows: [[String]] = []
        let n = document.records
        for (backend, goals) in WorkloadGoals.relativeSpeed.sorted(by: { $0.key < $1.key }) {
            for (step, goal) in goals.sorted(by: { $0.key < $1.key }) {
                let measured = document.ratio(backend, step, n)?.toBaseline
                rows.append(Self.goalRow(backend, step, "the raw engine beneath it, N = \(ReportFormatting.grouped(Double(n)))", goal, measured))
            }
        }
        if let peers = document.peers {
            let model = peers.peers.first { $0.backend == "strata-model" }
            let grdb = peers.peers.first { $0.backend == "grdb-records" }
            let against = "GRDB's hand-written records, same run, N = \(ReportFormatting.grouped(Double(peers.records)))"
            for step in WorkloadGoals.modelOverGRDBSteps {
                let ratio = model?.relativeSpeed(step).flatMap { m in grdb?.relativeSpeed(step).flatMap { $0 > 0 ? m / $0 : nil } }
                rows.append(Self.goalRow("strata-model", step, against, WorkloadGoals.modelOverGRDB, ratio))
            }
            rows.append(Self.goalRow("strata-model", "scan", "raw C on SQLite, same run", WorkloadGoals.modelScanOfC, model?.relativeSpeed("scan")))
        }
        guard !rows.isEmpty else { return nil }
        return ReportSection(
            id: "goals", title: "Speed goals, met or not",
            paragraphs: [
                "Each goal is a least relative speed (×1.00 = as fast as what it is measured against, ×0.50 = half as fast): a backend against its raw engine (the workload table's raw ratios), and with the peers benchmark, Strata's model layer against GRDB's hand-written records and against raw C in the same run. The goals and where they come from: docs/benchmarks.md.",
            ],
            header: ["backend", "step", "against", "goal", "measured", "status"],
            rows: rows)
    }

    /// One goal's row; a goal this report has no figure for says so instead of guessing.
    private static func goalRow(_ backend: String, _ step: String, _ against: String, _ goal: Double, _ measured: Double?) -> [String] {
        guard let measured else { return [backend, step, against, "≥ " + ReportFormatting.ratio(goal), "—", "not measured"] }
        return [backend, step, against, "≥ " + ReportFormatting.ratio(goal), ReportFormatting.ratio(measured), measured >= goal ? "met" : "not met"]
    }
}
