import Foundation
import Strata

extension BackendReport {
    /// Measures a backend in this process, as `strata report` measures the built-in ones: its
    /// declared capabilities, the whole conformance suite, and the standard workload at each size.
    /// A failure (a store that cannot open, a wrong workload result) is recorded in `failures`, never
    /// thrown, so the fragment always says what happened.
    ///
    /// Everything runs in one process, so `peak-memory` grows with each size run; run one size per
    /// process (`sizes: [n]`, then merge) when that figure matters.
    ///
    /// ```swift
    /// let report = BackendReport.measure(name: "mine", summary: "My store.", factory: factory, sizes: [1_000, 10_000])
    /// try report.write(to: URL(fileURLWithPath: "mine.json"))
    /// ```
    public static func measure<Store: DataStore>(
        name: String, summary: String, storage: StorageFormat? = nil, factory: StoreFactory<Store>,
        sizes: [Int] = [1_000, 10_000, 100_000], runConformance: Bool = true
    ) -> BackendReport {
        var report = BackendReport(name: name, summary: summary, storage: storage)
        do {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-caps-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { factory.destroy(directory) }
            report.capabilities = try Store(factory.configuration(directory, FixtureDomain.schema)).capabilities.names
        } catch {
            report.failures.append("capabilities: \(error)")
        }
        if runConformance { report.conformance = ConformanceSummary(results: ConformanceSuite.run(on: factory)) }
        for size in sizes.sorted() {
            do {
                report.workloads.append(try StandardWorkload.run(name, factory: factory, records: size))
            } catch {
                report.failures.append("workload at N = \(size): \(error)")
            }
        }
        return report
    }
}
