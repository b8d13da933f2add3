import Foundation
import StrataConformance

/// What the report says about each built-in backend beyond its measured figures: how its store looks
/// on disk and which tools open it (from docs/formats/), and what its raw-engine baseline measures.
extension BuiltinBackend {
    /// The store's files and the tools that open them, from the backend's format document.
    var storageFormat: BackendReport.StorageFormat? {
        switch name {
        case "sqlite": .init(description: "one SQLite 3 database file (store.sqlite), real tables", tools: ["sqlite3", "any SQLite browser", "Python sqlite3"], humanReadable: false)
        case "lmdb": .init(description: "an LMDB environment (data.mdb, lock.mdb)", tools: ["mdb_dump", "mdb_stat", "py-lmdb"], humanReadable: false)
        case "json": .init(description: "a JSON document plus a journal of JSON lines", tools: ["a text editor", "jq", "python3 -m json.tool", "diff"], humanReadable: true)
        case "csv": .init(description: "a folder of RFC 4180 CSV tables and a JSON manifest", tools: ["a spreadsheet", "Python csv", "a text editor", "diff"], humanReadable: true)
        case "xml": .init(description: "an XML document (schema docs/formats/strata-xml.xsd) plus a journal of XML entries", tools: ["xmllint", "a text editor", "diff"], humanReadable: true)
        case "memory": .init(description: "none: the data lives in the process", tools: [], humanReadable: false, onDisk: false)
        default: nil
        }
    }

    /// What the baseline figures of `strata bench --baseline` measure, for the ratios' labels.
    var baselineDescription: String? {
        guard baseline != nil else { return nil }
        switch name {
        case "sqlite": return "raw C SQLite: the backend's tables, prepared statements, one transaction per save"
        case "lmdb": return "raw C LMDB: the backend's databases, one write transaction per save"
        case "memory": return "a plain Swift dictionary floor holding the same records"
        case "json": return "Foundation JSONSerialization parsing the same files (document and journal), nothing built from them"
        case "csv": return "a C byte-level RFC 4180 parse of the same CSV tables, counting records and fields"
        case "xml": return "libxml2 parsing the same XML document"
        default: return "the raw engine beneath the backend"
        }
    }

    /// Measures this backend for the report, each part in a child process of this executable: the
    /// conformance suite, then the standard workload (with its baseline, if any) at each size. A child
    /// that fails is recorded in the fragment's `failures`; the report goes on.
    func reportFragment(sizes: [Int], timeLimit: Duration, progress: ReportProgress) -> BackendReport {
        var report = BackendReport(name: name, summary: summary, origin: "built-in", storage: storageFormat, baselineDescription: baselineDescription)
        do {
            report.capabilities = try capabilities().names
        } catch {
            report.failures.append("capabilities: \(error)")
        }
        func child(_ task: String, _ arguments: [String]) -> Data? {
            var elapsed = Duration.zero
            do {
                let outcome = try ChildProcess(arguments: arguments, timeLimit: timeLimit).run { elapsed = $0; progress.running(name, task, elapsed: $0) }
                // conformance exits 1 when a required case fails, yet its JSON is the result to show
                let usable = !outcome.signaled && !outcome.timedOut && (outcome.status == 0 || arguments.first == "conformance") && !outcome.output.isEmpty
                progress.finished(name, task, elapsed: elapsed, failure: usable ? nil : outcome.failureText)
                if !usable { report.failures.append("\(task): \(outcome.failureText)") }
                return usable ? outcome.output : nil
            } catch {
                progress.finished(name, task, elapsed: elapsed, failure: "\(error)")
                report.failures.append("\(task): could not start: \(error)")
                return nil
            }
        }
        if let data = child("conformance", ["conformance", "--backend", name, "--format", "json"]) {
            do {
                report.conformance = try ConformanceSummary(conformanceJSON: data)
            } catch {
                report.failures.append("conformance: unreadable output: \(error)")
            }
        }
        for size in sizes {
            let task = "bench N=\(size)"
            let arguments = ["bench", "--backend", name, "--records", String(size), "--format", "json"] + (baseline == nil ? [] : ["--baseline"])
            guard let data = child(task, arguments) else { continue }
            do {
                report.workloads.append(try JSONDecoder().decode(WorkloadReport.self, from: data).finiteOnly)
            } catch {
                report.failures.append("\(task): unreadable output: \(error)")
            }
        }
        return report
    }
}
