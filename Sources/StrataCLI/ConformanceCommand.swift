import ArgumentParser
import StrataBuiltinBackends
import StrataConformance

/// `strata conformance --backend <name>`: runs the whole suite; exits non-zero if any case fails (a case the backend
/// declared unsupported, by not declaring the capability it needs, is skipped and listed in the summary).
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "conformance", abstract: "Run the conformance suite on a built-in backend.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

    @Option(help: "The backend to check (see `strata backends`), or a custom store: \(CustomStoreForwarder.names.joined(separator: ", ")).") var backend: String
    @Option(help: "Output format: text, json or markdown.") var format: Format = .text
    @Option(help: "The PostgreSQL server of the postgres backend (a postgresql:// URL); default: STRATA_POSTGRES_URL, else the PG* variables.") var url: String?

    func run() throws {
        if let url { PostgresServer.use(url) }
        if CustomStoreForwarder.names.contains(backend) { try CustomStoreForwarder.conformance(backend: backend, format: format.rawValue) }
        let chosen = try BuiltinBackend.named(backend)
        let report = ConformanceReport(backend: chosen.name, results: chosen.conformance())
        switch format {
        case .text: print(report.text)
        case .json: print(report.json)
        case .markdown: print(report.markdown)
        }
        if report.anyFailed { throw ExitCode(1) }
    }
}
