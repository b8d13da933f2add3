import ArgumentParser
import Foundation
import StrataBuiltinBackends
import StrataConformance

/// `strata report`: the conformance suite and the standard workload on every selected backend, each in
/// its own child process, written as `report.json` (every figure), `report.md` and `index.html` (the
/// page a person reads to choose a backend). See docs/report.md.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Compare backends: conformance, the standard workload at several sizes, raw-engine ratios (build with -c release).",
        discussion: """
            Each backend's conformance run and each workload size run in a child process of this executable,
            so a crash or a memory peak stays with its backend; a failing child is shown in that backend's
            row and the report goes on. Fragments written by third-party backends (BackendReport.write) join
            with --add. Progress goes to standard error when it is a terminal.
            """)

    @Option(help: "N, the store size of the workload table (added to --sizes if missing).") var records: Int = 100_000
    @Option(help: "Store sizes for the scaling charts, comma-separated.") var sizes: String = "1000,10000,100000"
    @Option(help: "Built-in backends to run, comma-separated (default: all, and postgres when STRATA_POSTGRES_URL names a server, as make report does).") var backends: String?
    @Option(help: "A backend report fragment (JSON) to merge; may repeat.") var add: [String] = []
    @Option(help: "The folder to write report.json, report.md and index.html into.") var out: String = "reports"
    @Option(help: "Seconds a child process may run before it is stopped.") var childTimeLimit: Int = 1800
    @Option(help: "N of the convert figures (strata convert between backends; 0: no convert section). Default: --records.") var convertRecords: Int?
    @Flag(inversion: .prefixedNo, help: "Convert figures for every pair of backends (--no-convert-every-pair: only into and out of SQLite, about a third of the time).") var convertEveryPair = true
    @Option(help: "N of the convert figures into and out of a server backend (PostgreSQL); at most the convert N. Default: the convert N.") var convertServerRecords: Int?
    @Option(help: "Only the convert pairs with this backend as source or destination (to re-measure one backend's pairs).") var convertPairsWith: String?
    @Option(help: "The peers benchmark's JSON (make peers: Strata's model layer, GRDB and raw C on SQLite) to show as a section.") var peers: String?

    /// The sizes to run, increasing, N included.
    func sizeList() throws -> [Int] {
        var list: [Int] = []
        for part in sizes.split(separator: ",") {
            guard let n = Int(part.trimmingCharacters(in: .whitespaces)), n >= 1_000, n % 100 == 0 else {
                throw ValidationError("--sizes: '\(part)' is not a multiple of 100 of at least 1000.")
            }
            list.append(n)
        }
        return Array(Set(list + [records])).sorted()
    }

    func validate() throws {
        guard records >= 1_000, records % 100 == 0 else { throw ValidationError("--records must be a multiple of 100 and at least 1000.") }
        _ = try sizeList()
        _ = try chosenBackends()
    }

    func chosenBackends() throws -> [BuiltinBackend] {
        guard let backends else { return BuiltinBackend.all + BuiltinBackend.servers }
        return try backends.split(separator: ",").map { try BuiltinBackend.named($0.trimmingCharacters(in: .whitespaces)) }
    }

    func run() throws {
        #if DEBUG
        FileHandle.standardError.write(Data("note: this is a debug build; figures are only meaningful from a release build (make report).\n".utf8))
        #endif
        let sizes = try sizeList()
        let added = try add.map { path in
            var fragment = try BackendReport.read(from: URL(fileURLWithPath: path))
            fragment.origin = "added"
            return fragment
        }
        let peerFigures = try peers.map { try JSONDecoder().decode(PeersReport.self, from: Data(contentsOf: URL(fileURLWithPath: $0))) }
        let progress = ReportProgress.forStandardError
        let start = ContinuousClock.now
        var fragments: [BackendReport] = []
        for backend in try chosenBackends() {
            progress.note("\(backend.name):")
            fragments.append(backend.reportFragment(sizes: sizes, records: records, timeLimit: .seconds(childTimeLimit), progress: progress))
        }
        var conversions: ReportConversions?
        let convertN = convertRecords ?? records
        if convertN > 0 {
            // Backends with files at N; a server's, when one is named (make report starts one), at its own N.
            let chosen = try chosenBackends().map(\.name).filter { $0 != "memory" }
            let serverNames = Set(BuiltinStores.servers.map(\.name))
            let names = chosen.filter { !serverNames.contains($0) }
            let servers = PostgresServer.url == nil ? [] : chosen.filter { serverNames.contains($0) }
            progress.note("convert:")
            conversions = ReportConversions.measure(
                names, servers: servers, records: convertN, serverRecords: min(convertN, convertServerRecords ?? convertN), hub: "sqlite",
                everyPair: convertEveryPair, with: convertPairsWith, timeLimit: .seconds(childTimeLimit), progress: progress)
        }
        let document = ReportDocument(records: records, sizes: sizes, backends: fragments + added, peers: peerFigures, conversions: conversions)
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try document.encoded().write(to: folder.appendingPathComponent("report.json"), options: .atomic)
        try Data(MarkdownReport(document: document).text.utf8).write(to: folder.appendingPathComponent("report.md"), options: .atomic)
        let page = folder.appendingPathComponent("index.html")
        try Data(HTMLReport(document: document).text.utf8).write(to: page, options: .atomic)
        let elapsed = ContinuousClock.now - start
        progress.note("Report written in \(elapsed.components.seconds) s.")
        print(page.standardizedFileURL.path)
    }
}
