import Foundation
import StrataBuiltinBackends

/// The report's convert figures (docs/convert.md): a random store of N records converted between
/// backends with `strata convert`'s code path, one child process (`strata convert-bench`) per
/// source backend, records/s per pair with the verification included.
struct ReportConversions: Codable {
    /// Records the random store was written with (about N; the deletes leave a few fewer).
    var records: Int
    /// Whether every pair ran, or the subset through the hub backend.
    var everyPair: Bool
    /// The backend every other one is converted into and from, when not every pair ran.
    var hub: String
    /// The server backends (PostgreSQL), converted to and from `hub` only, at `serverRecords`.
    var servers: [String] = []
    /// N of the pairs with a server backend: smaller, because a save into PostgreSQL writes row by
    /// row (docs/convert.md, "Figures"); 0 when no server ran.
    var serverRecords: Int = 0
    /// One figure per pair that ran.
    var figures: [ConvertBenchCommand.Figure]
    /// Children that failed: the source backend and what happened.
    var failures: [String]

    /// The pairs to run, grouped by source: with `everyPair`, every backend into every other;
    /// otherwise every other backend into `hub` and `hub` into every other.
    static func plan(_ backends: [String], hub: String, everyPair: Bool) -> [(from: String, to: [String])] {
        if everyPair { return backends.map { from in (from, backends.filter { $0 != from }) } }
        let others = backends.filter { $0 != hub }
        return [(hub, others)] + others.map { ($0, [hub]) }
    }

    /// Runs the plan's children and collects their figures: `backends` (with files) at `records`,
    /// then each of `servers` into and out of `hub` at `serverRecords`.
    static func measure(_ backends: [String], servers: [String], records: Int, serverRecords: Int, hub: String, everyPair: Bool, timeLimit: Duration, progress: ReportProgress) -> ReportConversions {
        var result = ReportConversions(
            records: records, everyPair: everyPair, hub: hub, servers: servers, serverRecords: servers.isEmpty ? 0 : serverRecords, figures: [], failures: [])
        let serverPlan = servers.isEmpty || serverRecords == 0 ? [] : [(from: hub, to: servers)] + servers.map { (from: $0, to: [hub]) }
        let runs = plan(backends, hub: hub, everyPair: everyPair).map { ($0.from, $0.to, records) } + serverPlan.map { ($0.from, $0.to, serverRecords) }
        for (from, destinations, records) in runs {
            let task = "convert N=\(records) into \(destinations.joined(separator: ","))"
            var elapsed = Duration.zero
            do {
                let outcome = try ChildProcess(
                    arguments: ["convert-bench", "--from", from, "--to", destinations.joined(separator: ","), "--records", String(records), "--format", "json"],
                    timeLimit: timeLimit
                ).run { elapsed = $0; progress.running(from, task, elapsed: $0) }
                guard !outcome.signaled, !outcome.timedOut, outcome.status == 0 else {
                    progress.finished(from, task, elapsed: elapsed, failure: outcome.failureText)
                    result.failures.append("\(from): \(outcome.failureText)")
                    continue
                }
                result.figures += try JSONDecoder().decode([ConvertBenchCommand.Figure].self, from: outcome.output)
                progress.finished(from, task, elapsed: elapsed, failure: nil)
            } catch {
                progress.finished(from, task, elapsed: elapsed, failure: "\(error)")
                result.failures.append("\(from): \(error)")
            }
        }
        return result
    }

    /// The report section: a from × to table of records/s (seconds in brackets).
    var section: ReportSection {
        let names = Array(Set(figures.flatMap { [$0.from, $0.to] })).sorted()
        let isServerPair = { (f: ConvertBenchCommand.Figure) in servers.contains(f.from) || servers.contains(f.to) }
        let left = figures.first { !isServerPair($0) }?.records ?? records
        let scope = everyPair
            ? "every pair of the backends with files"
            : "every backend into \(hub) and \(hub) into every backend, not every pair: at this N every pair takes about three times as long on a small machine, and each pair's rate is close to the slower of its two sides' (the column into \(hub) and the row out of it show each backend as source and as destination)"
        var paragraphs = [
            "strata convert (docs/convert.md) of a random store of the differential schema (\(ReportFormatting.grouped(Double(left))) records left after deletes, about two links each), \(scope). Each cell: records per second of wall time, the seconds in brackets; the time includes the staged copy, the verification that re-reads both stores, and publishing the destination. Row: the source backend; column: the destination."
        ]
        if serverRecords > 0, let server = figures.first(where: isServerPair) {
            paragraphs.append(
                "\(servers.joined(separator: ", ")) into and out of \(hub) only, at a smaller N: a store of \(ReportFormatting.grouped(Double(server.records))) records left (written with N = \(ReportFormatting.grouped(Double(serverRecords)))), marked in its cells. A save into PostgreSQL writes row by row, a round trip or more per row, so at N = \(ReportFormatting.grouped(Double(records))) these pairs alone would outlast the report's child time limit; the rate is per record, so it compares across N only roughly.")
        }
        var section = ReportSection(id: "convert", title: "Converting a store to another backend", paragraphs: paragraphs, header: ["from \\ to"] + names)
        for from in names where figures.contains(where: { $0.from == from }) {
            section.rows.append([from] + names.map { to in
                guard let f = figures.first(where: { $0.from == from && $0.to == to }) else { return from == to ? "—" : "" }
                let n = isServerPair(f) ? ", N = \(ReportFormatting.grouped(Double(f.records)))" : ""
                return "\(ReportFormatting.grouped(f.recordsPerSecond.rounded())) (\(String(format: "%.1f", f.seconds)) s\(n))"
            })
        }
        section.list = failures.map { "failed: \($0)" }
        return section
    }
}
