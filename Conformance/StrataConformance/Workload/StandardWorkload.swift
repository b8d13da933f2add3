import Foundation
import Strata

/// Runs the standard workload of `docs/workload.md` on any backend, so every backend is measured
/// on the same work and figures compare. Each step is timed on its own; correctness is checked along
/// the way (the unique violation must fail and change nothing, the cascade must delete 1,000 items),
/// so a fast wrong backend cannot post a figure.
public enum StandardWorkload {
    /// Wraps the timed part of one step (its name, then the work), so a caller can hand exactly that
    /// part to an instruction counter: `strata bench --step` runs it inside a C function callgrind
    /// toggles on. It must call `body` once.
    public typealias StepBracket = (_ step: String, _ body: () throws -> Void) throws -> Void

    /// Runs every step with `records` items in a fresh directory and returns the figures.
    /// `bracket` wraps each step's timed part (see `StepBracket`).
    ///
    /// - Throws: a store error, or `WorkloadError` when a step's result is wrong.
    public static func run<Store: DataStore>(_ name: String, factory: StoreFactory<Store>, records: Int = 100_000, bracket: StepBracket? = nil) throws -> WorkloadReport {
        func time<T>(_ step: String, _ body: () throws -> T) throws -> (T, Double) { try WorkloadTiming.time(step, bracket, body) }
        precondition(records >= 1_000 && records % 100 == 0, "records must be a multiple of 100, at least 1,000")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { factory.destroy(directory) }
        let schema = WorkloadSchema.schema
        let item = schema.entity(named: "Item")!
        var steps: [String: WorkloadReport.Figure] = [:]
        var order: [String] = []
        func record(_ step: String, _ value: Double, _ unit: String) {
            steps[step] = .init(value: value, unit: unit)
            order.append(step)
        }

        var store: Store? = try Store(factory.configuration(directory, schema))

        // 1. insert
        let ownerCount = records / 100
        let (owners, items) = insertedRecords(Store.Snapshot.self, records: records)
        let request = SaveRequest(inserted: owners + items)  // built before the clock starts
        var (inserted, seconds) = try time("insert") { try store!.save(request) }
        record("insert", Double(ownerCount + records) / seconds, "records/s")
        let itemIDs = items.map { inserted.remappedIdentifiers[$0.persistentIdentifier]! }
        let ownerIDs = owners.map { inserted.remappedIdentifiers[$0.persistentIdentifier]! }
        inserted = SaveResult(storeIdentifier: "", remappedIdentifiers: [:], deletedIdentifiers: [], changedSnapshots: [:])

        // 2. reopen
        store = nil
        (store, seconds) = try time("reopen") {
            let reopened = try Store(factory.configuration(directory, schema))
            _ = try reopened.fetchCount(FetchDescriptor(entity: "Owner"))
            return reopened
        }
        record("reopen", seconds * 1000, "ms")
        let s = store!

        // 3. fetch-by-id
        var rng = SeededGenerator(state: 42)
        let probes = (0..<10_000).map { _ in itemIDs[Int(rng.next() % UInt64(records))] }
        (_, seconds) = try time("fetch-by-id") {
            for id in probes {
                guard try s.snapshot(for: id) != nil else { throw WorkloadError("fetch-by-id found nothing for \(id)") }
            }
        }
        record("fetch-by-id", Double(probes.count) / seconds, "lookups/s")

        // 4. scan
        var scanned: [Store.Snapshot] = []
        (scanned, seconds) = try time("scan") { try s.fetch(FetchDescriptor(entity: "Item")) }
        guard scanned.count == records else { throw WorkloadError("scan returned \(scanned.count) items, expected \(records)") }
        record("scan", Double(records) / seconds, "records/s")

        // 5. filter
        var hits: [Store.Snapshot] = []
        (hits, seconds) = try time("filter") { try s.fetch(FetchDescriptor(entity: "Item", predicate: .compare("category", .equal, 42), sortBy: [SortKey("price", order: .descending)])) }
        guard hits.count == records / 100 else { throw WorkloadError("filter returned \(hits.count) items, expected \(records / 100)") }
        record("filter", seconds * 1000, "ms")

        // 6. update-one
        let priceIndex = item.attributeIndex("price")!
        var durations: [Double] = []
        for round in 0..<100 {
            let target = scanned[Int(rng.next() % UInt64(records))]
            var values = target.attributeValues
            values[priceIndex] = .double(Double(round) + 0.5)
            let changed = Store.Snapshot(entity: item, persistentIdentifier: target.persistentIdentifier, attributes: values, relationships: target.relationshipValues)
            // The request is the application's, built before the clock like its snapshot: inside,
            // the unspecialized generic array literal alone was a visible part of every backend's
            // update-one (Benchmarks/Thresholds/*-update-one.txt).
            let request = SaveRequest(updated: [changed])
            durations.append(try time("update-one") { try s.save(request) }.1 * 1000)
        }
        record("update-one", WorkloadTiming.median(durations), "ms (median)")

        // 7. update-batch
        let batch = stride(from: 0, to: records, by: 10).map { i -> Store.Snapshot in
            var values = scanned[i].attributeValues
            values[priceIndex] = .double(-Double(i))
            return Store.Snapshot(entity: item, persistentIdentifier: scanned[i].persistentIdentifier, attributes: values, relationships: scanned[i].relationshipValues)
        }
        scanned = []
        (_, seconds) = try time("update-batch") { try s.save(SaveRequest(updated: batch)) }
        record("update-batch", Double(batch.count) / seconds, "records/s")

        // 8. unique-violation
        let duplicate = Store.Snapshot(entity: item, persistentIdentifier: .temporary(entity: "Item"), attributes: WorkloadSchema.itemValues(7), relationships: [.toOne(ownerIDs[0])])
        (_, seconds) = try time("unique-violation") {
            do {
                _ = try s.save(SaveRequest(inserted: [duplicate]))
                throw WorkloadError("inserting a duplicate name succeeded")
            } catch let error as StrataError where error.code == .uniqueConstraintViolation {}
        }
        record("unique-violation", seconds * 1000, "ms")
        guard try s.fetchCount(FetchDescriptor(entity: "Item")) == records else { throw WorkloadError("the failed insert changed the item count") }

        // 9. cascade-delete
        let doomed = try s.fetch(FetchDescriptor(entity: "Owner", predicate: .identifierIn(Array(ownerIDs.prefix(10)))))
        (_, seconds) = try time("cascade-delete") { try s.save(SaveRequest(deleted: doomed)) }
        record("cascade-delete", seconds * 1000, "ms")
        let left = try s.fetchCount(FetchDescriptor(entity: "Item"))
        guard left == records - 1_000 else { throw WorkloadError("after deleting 10 owners \(left) items remain, expected \(records - 1_000)") }

        // 10. size, 11. peak-memory
        record("size", Double(directorySize(directory)), "bytes")
        record("peak-memory", Double(peakResidentBytes()) / 1_048_576, "MiB")

        return WorkloadReport(
            backend: name, records: records, steps: steps, order: order, version: StrataVersion.current,
            machine: .current,
            baseline: nil)
    }

    /// Bytes of every regular file under `url`.
    static func directorySize(_ url: URL) -> UInt64 {
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total: UInt64 = 0
        for case let file as URL in walker {
            let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += UInt64(values?.fileSize ?? 0) }
        }
        return total
    }

    /// The process's peak resident set (VmHWM on Linux), in bytes; 0 where it cannot be read.
    static func peakResidentBytes() -> UInt64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = UInt64(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }
}

/// A workload step produced a wrong result; the figure would be meaningless.
public struct WorkloadError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// A workload error saying what went wrong.
    public init(_ description: String) { self.description = description }
}

/// The size of a store's files, as the workload's `size` step counts it (for raw baselines too).
public enum StandardWorkloadSize {
    /// Bytes of every regular file under `directory`.
    public static func bytes(_ directory: URL) -> UInt64 { StandardWorkload.directorySize(directory) }
}
