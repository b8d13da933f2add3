import Foundation
import Strata

/// The `strata` tool's commands for a backend outside this repository: a third party's small
/// executable runs `conformance`, `bench`, `dump`, `sample` and `difftest` on its own backend and
/// gets the same output formats as `strata` prints for the built-in ones.
///
/// ```swift
/// // Sources/mybackend-tool/main.swift
/// import StrataConformance
/// import MyBackend
/// let factory = StoreFactory<MyStore> { dir, schema in MyConfiguration(folder: dir, schema: schema) }
/// exit(BackendTool.run(CommandLine.arguments.dropFirst(), name: "mine", factory: factory))
/// ```
///
/// `mybackend-tool conformance --format markdown`, `bench --records 100000 --format json`,
/// `sample --path DIR`, `dump --path DIR`, `difftest --seeds 100 --operations 200`.
public enum BackendTool {
    /// Runs one command; returns the process exit status (0 success, 1 a failed check, 2 usage).
    ///
    /// - Parameter compareWith: backends a `difftest` runs in lockstep with this one; with none, the
    ///   backend is compared with a second instance of itself (which still catches nondeterminism).
    public static func run<Store: DataStore>(_ arguments: some Collection<String>, name: String, factory: StoreFactory<Store>, compareWith: [DifferentialBackend] = []) -> Int32 {
        let args = Array(arguments)
        func option(_ flag: String) -> String? { args.firstIndex(of: flag).flatMap { args.index(after: $0) < args.endIndex ? args[args.index(after: $0)] : nil } }
        do {
            switch args.first {
            case "conformance":
                let report = ConformanceReport(backend: name, results: ConformanceSuite.run(on: factory))
                switch option("--format") ?? "text" {
                case "json": print(report.json)
                case "markdown": print(report.markdown)
                default: print(report.text)
                }
                return report.anyFailed ? 1 : 0
            case "bench":
                let report = try StandardWorkload.run(name, factory: factory, records: Int(option("--records") ?? "") ?? 100_000)
                if option("--format") == "json" {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(report), as: UTF8.self))
                } else {
                    print(report.table)
                }
                return 0
            case "sample":
                guard let path = option("--path") else { return usage() }
                let dir = URL(fileURLWithPath: path)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                let count = try FixtureDomain.writeSample(into: try Store(factory.configuration(dir, FixtureDomain.schema))).count
                print("Wrote \(count) records of the fixture domain to \(path).")
                return 0
            case "dump":
                guard let path = option("--path") else { return usage() }
                print(try StoreDump.json(try Store(factory.configuration(URL(fileURLWithPath: path), FixtureDomain.schema))))
                return 0
            case "difftest":
                let seeds = UInt64(option("--seeds") ?? "") ?? 100, operations = Int(option("--operations") ?? "") ?? 200
                let mine = DifferentialBackend(name: name, factory: factory)
                let all = [mine] + (compareWith.isEmpty ? [DifferentialBackend(name: name + " (second instance)", factory: factory)] : compareWith)
                var stats = DifferentialStats()
                for seed in 1...max(seeds, 1) { stats = stats + (try DifferentialTest.run(seed: seed, operations: operations, backends: all)) }
                print("difftest: \(seeds) seeds × \(operations) operations on \(all.map(\.name).joined(separator: ", ")): no divergence; \(stats.summary)")
                return 0
            default:
                return usage()
            }
        } catch let divergence as Divergence {
            print(divergence)
            return 1
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1
        }
    }

    private static func usage() -> Int32 {
        FileHandle.standardError.write(Data("usage: conformance [--format text|json|markdown] | bench [--records N] [--format text|json] | sample --path DIR | dump --path DIR | difftest [--seeds N] [--operations N]\n".utf8))
        return 2
    }
}
