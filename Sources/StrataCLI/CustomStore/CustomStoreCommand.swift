import ArgumentParser
import CustomStoreExample
import StrataConformance

/// `strata-custom-store conformance --backend wwdc-json` (also `strata conformance --backend
/// wwdc-json`): the conformance suite on a store written to SwiftData's custom-store protocol, run
/// through `CustomStoreAdapter`. A separate executable because it links the model layer, which
/// `strata` does not (docs/architecture.md, "Why the model bench is a separate executable").
@main
struct CustomStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-custom-store",
        abstract: "Run the conformance suite on a custom store (SwiftData's DataStore protocol).",
        subcommands: [Conformance.self])

    struct Conformance: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the conformance suite on a custom store; exits non-zero if a required case fails.")

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

        @Option(help: "The custom store: \(CustomStoreFactories.names.map(\.name).joined(separator: ", ")).") var backend: String
        @Option(help: "Output format: text, json or markdown.") var format: Format = .text

        func run() throws {
            guard let results = CustomStoreFactories.conformance(backend) else {
                let known = CustomStoreFactories.names.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
                throw ValidationError("Unknown custom store '\(backend)'. Known:\n\(known)")
            }
            let report = ConformanceReport(backend: backend, results: results)
            switch format {
            case .text: print(report.text)
            case .json: print(report.json)
            case .markdown: print(report.markdown)
            }
            if report.anyFailed { throw ExitCode(1) }
        }
    }
}
