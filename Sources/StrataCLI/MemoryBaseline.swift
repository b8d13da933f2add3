import Foundation
import Strata
import StrataConformance

/// The floor the memory backend is measured against: a plain Swift dictionary store holding the same
/// records, with the same unique index on `Item.name` and the owners' item lists, doing each step's
/// work with nothing else — no validation, no atomicity, no copy-on-write state, no save result.
/// Fetches return the same `DefaultSnapshot`s the backend returns, so the ratio shows what the
/// engine's guarantees cost on top of the data structures themselves. There is no `reopen` (nothing
/// to reopen) and no `size` (no files).
enum MemoryBaseline {
    private struct Item {
        var attributes: [Value]
        var owner: Int64
    }

    static func run(records: Int, step: String?) throws -> [String: WorkloadReport.Figure] {
        let schema = WorkloadSchema.schema
        let itemEntity = schema.entity(named: "Item")!
        let storeIdentifier = PersistentIdentifier.makeStoreIdentifier()
        let bracket = step.map(BenchCommand.bracket(only:)) ?? { _, body in try body() }
        var figures: [String: WorkloadReport.Figure] = [:]
        func time(_ name: String, _ body: () throws -> Void) throws -> Double {
            let start = ContinuousClock.now
            try bracket(name, body)
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        func snapshot(_ key: Int64, _ item: Item) -> DefaultSnapshot {
            DefaultSnapshot(
                entity: itemEntity, persistentIdentifier: PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: "Item", primaryKey: key),
                attributes: item.attributes,
                relationships: [.toOne(PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: "Owner", primaryKey: item.owner))])
        }

        // 1. insert (the values are built before the clock starts, as the workload builds its request)
        let ownerCount = records / 100
        let ownerNames = (0..<ownerCount).map { "owner-\($0)" }
        let values = (0..<records).map(WorkloadSchema.itemValues)
        var owners: [Int64: (name: String, items: [Int64])] = [:]
        var items: [Int64: Item] = [:]
        var names: [String: Int64] = [:]
        var seconds = try time("insert") {
            owners.reserveCapacity(ownerCount)
            items.reserveCapacity(records)
            names.reserveCapacity(records)
            for (i, name) in ownerNames.enumerated() { owners[Int64(i + 1)] = (name, []) }
            for (i, attributes) in values.enumerated() {
                let key = Int64(i + 1), owner = Int64(i / 100 + 1)
                guard case .string(let name) = attributes[0], names.updateValue(key, forKey: name) == nil else {
                    throw WorkloadError("duplicate name at item \(i)")
                }
                items[key] = Item(attributes: attributes, owner: owner)
                owners[owner]!.items.append(key)
            }
        }
        figures["insert"] = .init(value: Double(ownerCount + records) / seconds, unit: "records/s")

        // 3. fetch-by-id
        var rng = SeededGenerator(state: 42)
        let probes = (0..<10_000).map { _ in Int64(rng.next() % UInt64(records)) + 1 }
        seconds = try time("fetch-by-id") {
            for key in probes {
                guard let item = items[key] else { throw WorkloadError("fetch-by-id found nothing for \(key)") }
                // Handed out of the loop like the backend's result, so the optimizer cannot drop it.
                FloorSink.shared.keep(snapshot(key, item))
            }
        }
        figures["fetch-by-id"] = .init(value: Double(probes.count) / seconds, unit: "lookups/s")

        // 4. scan
        var scanned: [DefaultSnapshot] = []
        seconds = try time("scan") {
            scanned.reserveCapacity(items.count)
            for key in 1...Int64(records) { if let item = items[key] { scanned.append(snapshot(key, item)) } }
        }
        figures["scan"] = .init(value: Double(records) / seconds, unit: "records/s")

        // 5. filter
        seconds = try time("filter") {
            var hits: [(Int64, Item)] = []
            for key in 1...Int64(records) { if let item = items[key], item.attributes[1] == .int(42) { hits.append((key, item)) } }
            hits.sort { ($0.1.attributes[2].double ?? 0, $1.0) > ($1.1.attributes[2].double ?? 0, $0.0) }
            let result = hits.map { snapshot($0.0, $0.1) }
            guard result.count == records / 100 else { throw WorkloadError("filter found \(result.count)") }
        }
        figures["filter"] = .init(value: seconds * 1000, unit: "ms")

        // 6. update-one
        var durations: [Double] = []
        for round in 0..<100 {
            let key = scanned[Int(rng.next() % UInt64(records))].persistentIdentifier.primaryKey
            durations.append(try time("update-one") { items[key]!.attributes[2] = .double(Double(round) + 0.5) } * 1000)
        }
        durations.sort()
        figures["update-one"] = .init(value: (durations[49] + durations[50]) / 2, unit: "ms (median)")
        scanned = []

        // 7. update-batch
        seconds = try time("update-batch") {
            for i in stride(from: 0, to: records, by: 10) { items[Int64(i + 1)]!.attributes[2] = .double(-Double(i)) }
        }
        figures["update-batch"] = .init(value: Double(records / 10) / seconds, unit: "records/s")

        // 8. unique-violation
        let duplicate = WorkloadSchema.itemValues(7)
        seconds = try time("unique-violation") {
            guard case .string(let name) = duplicate[0], names[name] != nil else { throw WorkloadError("the duplicate was not found") }
        }
        figures["unique-violation"] = .init(value: seconds * 1000, unit: "ms")

        // 9. cascade-delete
        seconds = try time("cascade-delete") {
            for owner in Int64(1)...10 {
                guard let removed = owners.removeValue(forKey: owner) else { throw WorkloadError("owner \(owner) missing") }
                for key in removed.items {
                    if let item = items.removeValue(forKey: key), case .string(let name) = item.attributes[0] { names.removeValue(forKey: name) }
                }
            }
        }
        figures["cascade-delete"] = .init(value: seconds * 1000, unit: "ms")
        guard items.count == records - 1_000 else { throw WorkloadError("after the cascade \(items.count) items remain") }
        return figures
    }
}

/// Where the floor hands each fetched snapshot, as a backend hands its result to the caller: held
/// until the next one replaces it (and is released then, as the workload releases a fetch's result).
/// Without it the optimizer removed the snapshot the floor built and discarded, and the floor
/// measured a dictionary lookup alone.
final class FloorSink: @unchecked Sendable {
    /// The one sink; only the single-threaded baseline writes it.
    static let shared = FloorSink()
    private var last: DefaultSnapshot?

    /// Keeps `snapshot` (opaque to the optimizer: not inlined, stored in a shared object).
    @inline(never)
    func keep(_ snapshot: DefaultSnapshot) { last = snapshot }
}
