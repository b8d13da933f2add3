import Foundation
import StrataBuiltinBackends
import StrataConformance

/// What the report says about each built-in backend beyond its measured figures: how its store looks
/// on disk and which tools open it (from docs/formats/), and what its raw-engine baseline measures.
extension BuiltinBackend {
    /// The store's files and the tools that open them, from the backend's format document.
    var storageFormat: BackendReport.StorageFormat? { BuiltinStores.named(name)?.storage }

    /// What the baseline figures of `strata bench --baseline` measure, for the ratios' labels.
    var baselineDescription: String? {
        guard baseline != nil else { return nil }
        return Self.baselines[name]?.description ?? "the raw engine beneath the backend"
    }

    /// Measures this backend for the report, each part in a child process of this executable: the
    /// conformance suite, the standard workload (with its baseline, if any) at each size, and the
    /// migrations of `strata migration-bench` at `records`. A child
    /// that fails is recorded in the fragment's `failures`; the report goes on.
    func reportFragment(sizes: [Int], records: Int, timeLimit: Duration, progress: ReportProgress) -> BackendReport {
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
        if BenchDurability.levels(of: name).contains(.processCrash),
           let data = child("bench N=\(records) processCrash", ["bench", "--backend", name, "--records", String(records), "--durability", "processCrash", "--format", "json"] + (baseline == nil ? [] : ["--baseline"])) {
            do {
                report.lighterDurability = try JSONDecoder().decode(WorkloadReport.self, from: data).finiteOnly
            } catch {
                report.failures.append("bench processCrash: unreadable output: \(error)")
            }
        }
        if let data = child("migrations N=\(records)", ["migration-bench", "--backend", name, "--records", String(records), "--format", "json"]) {
            do {
                report.migration = try JSONDecoder().decode(BackendReport.MigrationTimes.self, from: data)
            } catch {
                report.failures.append("migrations: unreadable output: \(error)")
            }
        }
        return report
    }
}
