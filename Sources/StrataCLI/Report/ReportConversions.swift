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
    /// The server backends (PostgreSQL), in the pairs as the others are, at `serverRecords`.
    var servers: [String] = []
    /// N of the pairs with a server backend: the convert N unless `--convert-server-records` says
    /// otherwise (docs/report.md); 0 when no server ran.
    var serverRecords: Int = 0
    /// The backend every pair had as source or destination, when the run was limited to its pairs.
    var pairsWith: String?
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

    /// The children to run: the plan over `backends` and `servers` together, one child per source
    /// (its store written once), a server destination last in it. When `serverRecords` differs from
    /// `records`, the pairs with a server go into children of their own at `serverRecords`. With
    /// `with`, only the pairs that have it as source or destination.
    static func children(_ backends: [String], servers: [String], records: Int, serverRecords: Int, hub: String, everyPair: Bool, with: String? = nil) -> [(from: String, to: [String], records: Int)] {
        let isServer = { (name: String) in servers.contains(name) }
        var runs: [(from: String, to: [String], records: Int)] = []
        for (from, all) in plan(backends + servers, hub: hub, everyPair: everyPair) {
            let destinations = with == nil || with == from ? all : all.filter { $0 == with }
            let files = isServer(from) ? [] : destinations.filter { !isServer($0) }
            let withServer = isServer(from) ? destinations : destinations.filter(isServer)
            if serverRecords == records {
                runs.append((from, files + withServer, records))
            } else {
                runs.append((from, files, records))
                if serverRecords > 0 { runs.append((from, withServer, serverRecords)) }
            }
        }
        return runs.filter { !$0.to.isEmpty }
    }

    /// Runs the children and collects their figures: the pairs of `backends` (with files) at
    /// `records`, the pairs with one of `servers` at `serverRecords`. A child prints each figure as
    /// its convert ends, so a child stopped at the time limit still gives the pairs it finished;
    /// the failure names the pairs it did not.
    static func measure(_ backends: [String], servers: [String], records: Int, serverRecords: Int, hub: String, everyPair: Bool, with: String?, timeLimit: Duration, progress: ReportProgress) -> ReportConversions {
        var result = ReportConversions(
            records: records, everyPair: everyPair, hub: hub, servers: servers, serverRecords: servers.isEmpty ? 0 : serverRecords, pairsWith: with, figures: [], failures: [])
        let runs = children(backends, servers: servers, records: records, serverRecords: serverRecords, hub: hub, everyPair: everyPair, with: with)
        for (from, destinations, records) in runs {
            let task = "convert N=\(records) into \(destinations.joined(separator: ","))"
            var elapsed = Duration.zero
            // The child's folder, made here and removed here however the child ends: a child stopped
            // at the time limit cannot remove it (nor its stores on a server) itself.
            let scratch = ConvertBenchCommand.newScratch()
            defer { ConvertBenchCommand.removeScratch(scratch, from: from, to: destinations) }
            do {
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                let outcome = try ChildProcess(
                    arguments: [
                        "convert-bench", "--from", from, "--to", destinations.joined(separator: ","), "--records", String(records), "--format", "lines",
                        "--scratch", scratch.path,
                    ],
                    timeLimit: timeLimit
                ).run { elapsed = $0; progress.running(from, task, elapsed: $0) }
                let figures = try outcome.output.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(ConvertBenchCommand.Figure.self, from: Data($0)) }
                result.figures += figures
                guard !outcome.signaled, !outcome.timedOut, outcome.status == 0 else {
                    let missing = destinations.filter { to in !figures.contains { $0.to == to } }
                    let failure = "\(from) → \(missing.joined(separator: ", ")) (N = \(ReportFormatting.grouped(Double(records)))): \(outcome.failureText) at \(elapsed.components.seconds) s"
                    progress.finished(from, task, elapsed: elapsed, failure: failure)
                    result.failures.append(failure)
                    continue
                }
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
        // Records left in the store of the convert N (a server's pairs at their own N say theirs apart).
        let left = (figures.first { !isServerPair($0) } ?? figures.first { _ in serverRecords == records })?.records ?? records
        let withServers = servers.isEmpty ? "" : serverRecords == records ? " and \(servers.joined(separator: ", ")) on its server" : ""
        let only = pairsWith.map { " — only the pairs with \($0) (--convert-pairs-with)" } ?? ""
        let scope = everyPair
            ? "every pair of the backends with files\(withServers) (the memory backend's stores live in one process: its pairs are tested, docs/convert.md)\(only)"
            : "every backend into \(hub) and \(hub) into every backend, not every pair (--no-convert-every-pair): each pair's rate is close to the slower of its two sides' (the column into \(hub) and the row out of it show each backend as source and as destination)"
        var paragraphs = [
            "strata convert (docs/convert.md) of a random store of the differential schema (\(ReportFormatting.grouped(Double(left))) records left after deletes, about two links each), \(scope). Each cell: records per second of wall time, the seconds in brackets; the time includes the staged copy, the verification that re-reads both stores, and publishing the destination. Row: the source backend; column: the destination."
        ]
        let serverApart = serverRecords > 0 && serverRecords != records
        if serverApart, let server = figures.first(where: isServerPair) {
            paragraphs.append(
                "\(servers.joined(separator: ", ")) at another N (--convert-server-records): a store of \(ReportFormatting.grouped(Double(server.records))) records left (written with N = \(ReportFormatting.grouped(Double(serverRecords)))), marked in its cells; the rate is per record, so it compares across N only roughly.")
        }
        var section = ReportSection(id: "convert", title: "Converting a store to another backend", paragraphs: paragraphs, header: ["from \\ to"] + names)
        for from in names where figures.contains(where: { $0.from == from }) {
            section.rows.append([from] + names.map { to in
                guard let f = figures.first(where: { $0.from == from && $0.to == to }) else { return from == to ? "—" : "" }
                let n = serverApart && isServerPair(f) ? ", N = \(ReportFormatting.grouped(Double(f.records)))" : ""
                return "\(ReportFormatting.grouped(f.recordsPerSecond.rounded())) (\(String(format: "%.1f", f.seconds)) s\(n))"
            })
        }
        section.list = failures.map { "failed: \($0)" }
        return section
    }
}
