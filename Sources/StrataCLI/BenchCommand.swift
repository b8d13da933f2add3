import ArgumentParser
import Foundation
import StrataConformance

/// `strata bench --backend <name>`: the standard workload of `shared/WORKLOAD.md`. Build with `-c release`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Run the standard benchmark workload on a built-in backend (build with -c release).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "The backend to measure.") var backend: String
    @Option(help: "N, the number of items (a multiple of 100, at least 1,000).") var records: Int = 100_000
    @Option(help: "Output format: text or json.") var format: Format = .text
    @Flag(help: "Also run the same steps on the raw C engine underneath (sqlite, lmdb), in this run, for ratios.") var baseline = false

    func validate() throws {
        guard records >= 1_000, records % 100 == 0 else { throw ValidationError("--records must be a multiple of 100 and at least 1000.") }
    }

    func run() throws {
        #if DEBUG
        FileHandle.standardError.write(Data("note: this is a debug build; figures are only meaningful with `swift run -c release strata bench`.\n".utf8))
        #endif
        let chosen = try BuiltinBackend.named(backend)
        var report = try chosen.bench(records)
        if baseline {
            guard let raw = chosen.baseline else { throw ValidationError("The \(chosen.name) backend has no raw engine baseline.") }
            report.baseline = try raw(records)
        }
        switch format {
        case .text: print(report.table)
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }
}
