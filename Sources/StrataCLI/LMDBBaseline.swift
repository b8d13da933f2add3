import CLMDBBaseline
import Foundation
import StrataConformance
import StrataLMDB

/// The standard workload on raw liblmdb, in C (`Sources/CLMDBBaseline`), in this process: the same
/// named databases as the backend, one write transaction per save, the backend's sync settings, the
/// same data and seed — the physical limit the LMDB backend is measured against.
enum LMDBBaseline {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(records: Int) throws -> [String: WorkloadReport.Figure] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-raw-lmdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The workload's draws: 10,000 fetch-by-id keys, then 100 update-one keys (items are 1…N).
        var rng = SeededGenerator(state: 42)
        let probes = (0..<10_000).map { _ in Int64(rng.next() % UInt64(records)) + 1 }
        let updates = (0..<100).map { _ in Int64(rng.next() % UInt64(records)) + 1 }
        var figures = strata_lmdb_figures()
        var error = [CChar](repeating: 0, count: 512)
        let flags = LMDBStoreConfiguration.environmentFlags(LMDBStoreConfiguration(folder: dir, schema: WorkloadSchema.schema).durability)
        let rc = strata_lmdb_baseline_run(dir.path, Int32(records), UInt32(flags), probes, Int32(probes.count), updates, Int32(updates.count), &figures, &error, error.count)
        guard rc == 0 else { throw Failure(description: "raw LMDB baseline: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        return [
            "insert": .init(value: figures.insert, unit: "records/s"),
            "reopen": .init(value: figures.reopen_ms, unit: "ms"),
            "fetch-by-id": .init(value: figures.fetch_by_id, unit: "lookups/s"),
            "scan": .init(value: figures.scan, unit: "records/s"),
            "filter": .init(value: figures.filter_ms, unit: "ms"),
            "update-one": .init(value: figures.update_one_ms, unit: "ms (median)"),
            "update-batch": .init(value: figures.update_batch, unit: "records/s"),
            "unique-violation": .init(value: figures.unique_violation_ms, unit: "ms"),
            "cascade-delete": .init(value: figures.cascade_delete_ms, unit: "ms"),
            "size": .init(value: figures.size_bytes, unit: "bytes"),
        ]
    }
}
