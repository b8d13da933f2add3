import CStrataBaselines
import Foundation
import Strata
import StrataConformance

/// The standard workload on raw SQLite, in C (`Benchmarks/CBaselines/CStrataBaselines/sqlite_baseline.c`): the same
/// tables, indexes and pragmas as the backend, every statement prepared once, `SQLITE_OPEN_NOMUTEX`,
/// static binds. It runs in this process on the same data, so the ratio backend / C is measured in one run.
enum SQLiteBaseline {
    static func run(records: Int, step: String? = nil, durability: SaveDurability = .powerLoss) throws -> [String: WorkloadReport.Figure] {
        strata_sqlite_baseline_set_power_loss_safe(durability == .powerLoss ? 1 : 0)
        defer { strata_sqlite_baseline_set_power_loss_safe(1) }
        return try RawBaseline.run(records: records, step: step) { directory, records, step, figures in
            strata_sqlite_baseline(directory, records, step, figures)
        }
    }
}

/// Runs one C baseline in a fresh directory and turns its figures into workload figures.
enum RawBaseline {
    struct Failure: Error, CustomStringConvertible { let description: String }

    typealias Entry = (UnsafePointer<CChar>, Int32, UnsafePointer<CChar>?, UnsafeMutablePointer<strata_baseline_figures>) -> Int32

    static func run(records: Int, step: String?, _ entry: Entry) throws -> [String: WorkloadReport.Figure] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var figures = strata_baseline_figures()
        let status = directory.path.withCString { path in
            if let step { return step.withCString { entry(path, Int32(records), $0, &figures) } }
            return entry(path, Int32(records), nil, &figures)
        }
        guard status == 0 else {
            let message = withUnsafeBytes(of: figures.error) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            throw Failure(description: "raw baseline failed: \(message)")
        }
        return [
            "insert": .init(value: figures.insert_per_second, unit: "records/s"),
            "reopen": .init(value: figures.reopen_ms, unit: "ms"),
            "fetch-by-id": .init(value: figures.fetch_by_id_per_second, unit: "lookups/s"),
            "scan": .init(value: figures.scan_per_second, unit: "records/s"),
            "filter": .init(value: figures.filter_ms, unit: "ms"),
            "update-one": .init(value: figures.update_one_ms, unit: "ms (median)"),
            "update-batch": .init(value: figures.update_batch_per_second, unit: "records/s"),
            "unique-violation": .init(value: figures.unique_violation_ms, unit: "ms"),
            "cascade-delete": .init(value: figures.cascade_delete_ms, unit: "ms"),
            "size": .init(value: figures.size_bytes, unit: "bytes"),
        ]
    }
}
