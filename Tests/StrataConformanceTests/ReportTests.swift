import Foundation
import Strata
import StrataConformance
import StrataMemory
import StrataTestSupport
import Testing

/// `strata report` end to end on a small run: report.json against its documented layout
/// (docs/report.md), a self-contained index.html, a merged third-party fragment, and a report that
/// still gets written when every child fails.
@Suite(.serialized)
struct ReportTests {
    static let steps = ["insert", "reopen", "fetch-by-id", "scan", "filter", "update-one", "update-batch", "unique-violation", "cascade-delete", "size", "peak-memory"]

    /// Runs `strata report` with `arguments` into a fresh folder; returns the folder and what it printed.
    static func report(_ arguments: [String], environment: [String: String] = [:]) throws -> (folder: URL, output: String, status: Int32) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-report-test-\(UUID().uuidString)")
        let run = try ChildProcess.run(BuiltProducts.strata, ["report"] + arguments + ["--out", folder.path], environment: environment, errors: .discarded)
        return (folder, run.output, run.status)
    }

    /// A third party's fragment, built in this process the way docs/writing-a-backend.md shows.
    static func thirdPartyFragment() throws -> URL {
        let factory = StoreFactory<MemoryStore> { dir, schema in MemoryStoreConfiguration(name: dir.path, schema: schema) } destroy: { MemoryStore.destroy(name: $0.path) }
        let fragment = BackendReport.measure(
            name: "third-party", summary: "The memory store, measured as an outside backend would be.",
            storage: .init(description: "none", tools: [], humanReadable: false, onDisk: false), factory: factory, sizes: [1_000, 2_000])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fragment-\(UUID().uuidString).json")
        try fragment.write(to: url)
        return url
    }

    @Test func theReportHoldsEveryBackendStepAndSizeWithConsistentRatios() throws {
        let fragment = try Self.thirdPartyFragment()
        defer { try? FileManager.default.removeItem(at: fragment) }
        let peers = try Self.peersFile()
        defer { try? FileManager.default.removeItem(at: peers) }
        let (folder, output, status) = try Self.report(["--records", "1000", "--sizes", "1000,2000", "--backends", "memory,sqlite", "--add", fragment.path, "--peers", peers.path])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == folder.appendingPathComponent("index.html").standardizedFileURL.path)

        let text = try String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(!text.contains("NaN") && !text.contains("Infinity"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "strata-report")
        #expect(json["version"] as? Int == 1)
        #expect(json["generated"] is String && json["strataVersion"] is String)
        let machine = try #require(json["machine"] as? [String: Any])
        for key in ["cores", "memoryBytes", "cpuModel", "os"] { #expect(machine[key] != nil, "machine.\(key) missing") }
        #expect(json["records"] as? Int == 1000)
        #expect(json["sizes"] as? [Int] == [1000, 2000])

        let backends = try #require(json["backends"] as? [[String: Any]])
        #expect(backends.map { $0["name"] as? String } == ["memory", "sqlite", "third-party"])
        #expect(backends.map { $0["origin"] as? String } == ["built-in", "built-in", "added"])
        for backend in backends {
            let name = backend["name"] as? String ?? "?"
            #expect((backend["failures"] as? [String])?.isEmpty == true, "\(name): \(backend["failures"] ?? "")")
            #expect(backend["format"] as? String == "strata-backend-report" && backend["version"] as? Int == 1)
            let categories = try #require((backend["conformance"] as? [String: Any])?["categories"] as? [[String: Any]], "\(name): no conformance")
            #expect(categories.count >= 10)
            let workloads = try #require(backend["workloads"] as? [[String: Any]])
            #expect(workloads.map { $0["records"] as? Int } == [1000, 2000], "\(name)")
            for workload in workloads {
                let steps = try #require(workload["steps"] as? [String: [String: Any]])
                for step in Self.steps { #expect((steps[step]?["value"] as? Double)?.isFinite == true, "\(name) \(step) at \(workload["records"] ?? 0)") }
            }
        }
        try Self.checkRatios(json, backends: ["memory", "sqlite", "third-party"], sizes: [1000, 2000])

        let page = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        for external in ["http://", "https://", "src=", "<link", "@import", "url(", "<script"] { #expect(!page.contains(external), "index.html contains \(external)") }
        #expect(page.components(separatedBy: "<svg").count - 1 == Self.steps.count + 2)  // a chart per step, two scaling charts
        for name in ["memory", "sqlite", "third-party", "Which backend should I choose"] { #expect(page.contains(name)) }
        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("## Standard workload at N = 1,000") && markdown.contains("| insert | records/s |"))
        // Only sqlite outlives the process here: it alone competes for reopening and size on disk.
        #expect(markdown.contains("Best for reopening from disk (reopen at N = 1,000): sqlite."), "\(markdown)")
        #expect(markdown.contains("Best for size on disk (size at N = 1,000): sqlite."))

        // Every column states its durability; SQLite also ran at processCrash, beside powerLoss.
        #expect(markdown.contains("| durability | level | none (in memory) | powerLoss |"), "\(markdown)")
        let sqlite = try #require(backends.first { $0["name"] as? String == "sqlite" })
        let lighter = try #require(sqlite["lighterDurability"] as? [String: Any])
        #expect(lighter["durability"] as? String == "processCrash")
        #expect(markdown.contains("## What power-loss safety costs") && markdown.contains("| sqlite | "))
        // The peers section: each figure against raw C, and the model layer against GRDB's records.
        #expect(markdown.contains("## Strata's model layer beside its peers on SQLite"))
        #expect(markdown.contains("| scan | records/s | 1,000,000 | 500,000 (×0.50) | 250,000 (×0.25) | ×2.00 |"), "\(markdown)")
        #expect(page.contains("Strata&#39;s model layer beside its peers") || page.contains("Strata's model layer beside its peers"))
        // The goals section: each goal beside the ratio measured, met or not; the peers' from the same run.
        #expect(markdown.contains("## Speed goals, met or not"))
        #expect(markdown.contains("| strata-model | scan | GRDB's hand-written records, same run, N = 1,000 | ≥ ×1.00 | ×2.00 | met |"), "\(markdown)")
        #expect(markdown.contains("| strata-model | scan | raw C on SQLite, same run | ≥ ×0.60 | ×0.50 | not met |"))
        #expect(markdown.contains("| strata-model | insert | GRDB's hand-written records, same run, N = 1,000 | ≥ ×1.00 | — | not measured |"))
        #expect(markdown.contains("| lmdb | scan | the raw engine beneath it, N = 1,000 | ≥ ×0.50 | — | not measured |"))
        #expect(markdown.range(of: #"\| sqlite \| scan \| the raw engine beneath it, N = 1,000 \| ≥ ×0\.60 \| ×[0-9.]+ \| (met|not met) \|"#, options: .regularExpression) != nil)
        #expect(page.contains("Speed goals, met or not"))
    }

    /// A peers file (what `make peers` writes) with two libraries and one step.
    static func peersFile() throws -> URL {
        func report(_ name: String, _ scan: Double) -> WorkloadReport {
            WorkloadReport(backend: name, records: 1_000, steps: ["scan": .init(value: scan, unit: "records/s")], order: ["scan"], version: "0", machine: .current, baseline: ["scan": .init(value: 1_000_000, unit: "records/s")])
        }
        let peers = PeersReport(
            records: 1_000, durability: .powerLoss, settings: "synchronous = FULL", peers: [report("strata-model", 500_000), report("grdb-records", 250_000)],
            descriptions: ["strata-model": "the model layer", "grdb-records": "GRDB records"])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-peers-\(UUID().uuidString).json")
        try JSONEncoder().encode(peers).write(to: url)
        return url
    }

    /// Every figure has one ratio entry; `toBest` and `toBaseline` agree with the figures they compare.
    static func checkRatios(_ json: [String: Any], backends: [String], sizes: [Int]) throws {
        let ratios = try #require(json["ratios"] as? [[String: Any]])
        func relative(_ value: Double, _ reference: Double, _ unit: String) -> Double { unit.hasSuffix("/s") ? value / reference : reference / value }
        for size in sizes {
            for step in steps {
                let entries = ratios.filter { $0["step"] as? String == step && $0["records"] as? Int == size }
                #expect(Set(entries.compactMap { $0["backend"] as? String }) == Set(backends) && entries.count == backends.count, "\(step) at \(size)")
                let measured = entries.filter { ($0["value"] as? Double ?? 0) > 0 }
                guard let unit = measured.first?["unit"] as? String else { continue }
                let values = measured.map { $0["value"] as! Double }
                let best = unit.hasSuffix("/s") ? values.max()! : values.min()!
                for entry in measured {
                    let value = entry["value"] as! Double
                    let toBest = try #require(entry["toBest"] as? Double, "\(step) \(size) \(entry["backend"] ?? "")")
                    #expect(abs(toBest - relative(value, best, unit)) < 1e-9 && toBest <= 1 + 1e-12)
                    if let raw = entry["baseline"] as? Double, raw > 0 {
                        let toBaseline = try #require(entry["toBaseline"] as? Double)
                        #expect(abs(toBaseline - relative(value, raw, unit)) < 1e-9)
                        #expect((entry["comparedWith"] as? String)?.hasPrefix("\(step) vs ") == true)
                    } else {
                        #expect(entry["toBaseline"] is NSNull, "a ratio without a baseline is null")
                    }
                }
            }
        }
    }

    @Test func aFailingBackendIsShownAndTheReportStillWritten() throws {
        // every child is stopped at its first check: all fail, and the report says so
        let (folder, _, status) = try Self.report(["--records", "1000", "--sizes", "1000", "--backends", "memory", "--child-time-limit", "0"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        let memory = try #require((json["backends"] as? [[String: Any]])?.first)
        let failures = try #require(memory["failures"] as? [String])
        #expect(failures.count == 3 && failures.allSatisfy { $0.contains("was stopped after the time limit") }, "\(failures)")  // conformance, bench, migrations
        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("## Failures") && markdown.contains("did not run"))
    }

    @Test func theConvertSectionHoldsEveryPairAndLeavesNothingBehind() throws {
        // SQLite → JSON and JSON → SQLite at N = 1,000, in a temporary directory of this test's own.
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("strata-report-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (folder, _, status) = try Self.report(
            ["--records", "1000", "--sizes", "1000", "--backends", "sqlite,json", "--convert-records", "1000"], environment: ["TMPDIR": temporary.path])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        let conversions = try #require(json["conversions"] as? [String: Any])
        #expect((conversions["failures"] as? [String])?.isEmpty == true, "\(conversions["failures"] ?? "")")
        let figures = try #require(conversions["figures"] as? [[String: Any]])
        #expect(Set(figures.map { "\($0["from"] ?? "") → \($0["to"] ?? "")" }) == ["sqlite → json", "json → sqlite"])
        let left = try #require(figures.first?["records"] as? Int)
        for figure in figures {
            #expect(figure["keysKept"] as? Bool == true && figure["records"] as? Int == left && (figure["links"] as? Int ?? 0) > left, "\(figure)")
        }
        // The deletes leave fewer than N, and the section says how many.
        #expect(left < 1_000 && left > 900, "\(left)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("## Converting a store to another backend") && markdown.contains("(\(left) records left after deletes"))
        let entries = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("strata-convert-bench-") }
        #expect(entries.isEmpty, "left behind: \(entries)")
    }

    @Test func aStoppedConvertChildLeavesNoFolderBehind() throws {
        // Every child is stopped at its first check, the convert children too (SQLite → JSON and
        // JSON → SQLite); the report made each one's working folder before starting it, in a
        // temporary directory of this test's own, and must have removed it.
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("strata-report-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (folder, _, status) = try Self.report(
            ["--records", "1000", "--sizes", "1000", "--backends", "sqlite,json", "--convert-records", "1000", "--child-time-limit", "0"],
            environment: ["TMPDIR": temporary.path])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        let conversions = try #require(json["conversions"] as? [String: Any])
        let failures = try #require(conversions["failures"] as? [String])
        #expect(failures.count == 2 && failures.allSatisfy { $0.contains("was stopped after the time limit") }, "\(failures)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("strata-convert-bench-") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
