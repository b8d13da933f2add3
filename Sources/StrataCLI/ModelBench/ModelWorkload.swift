import Foundation
import StrataConformance
import StrataModel

/// The standard workload (`docs/workload.md`) written as an application writes it: `@Model`
/// objects, a `ModelContainer` on the backend's own configuration, `ModelContext` inserts, fetches
/// and saves. `strata model-bench` runs it beside `StandardWorkload` (the same steps on the store
/// directly) in one process, so the ratio model/store is the model layer's cost.
///
/// What is timed at each step is what the application's code does: `insert` includes making the
/// objects (the store-level step gets its snapshots built before the clock starts: there is no
/// store-level equivalent of a model object); `scan` and `fetch-by-id` make the objects and load
/// no property, as the store level decodes nothing beyond the snapshot. Results are checked as the
/// store-level workload checks them.
enum ModelWorkload {
    /// Every step in a fresh directory; figures keyed by step name, in workload order.
    static func run<Store: Strata.DataStore>(factory: StoreFactory<Store>, records: Int, bracket: StandardWorkload.StepBracket?) throws -> [String: WorkloadReport.Figure] {
        func time<T>(_ step: String, _ body: () throws -> T) throws -> (T, Double) { try WorkloadTiming.time(step, bracket, body) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-model-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { factory.destroy(directory) }
        // The container replaces the configuration's schema with the models' one.
        func open() throws -> ModelContainer { try ModelContainer(for: Owner.self, configurations: factory.configuration(directory, .empty)) }
        var figures: [String: WorkloadReport.Figure] = [:]
        func record(_ step: String, _ value: Double, _ unit: String) { figures[step] = .init(value: value, unit: unit) }

        // 1. insert: N / 100 owners, N items, one save.
        var container: ModelContainer? = try open()
        let differences = container!.schema.differences(fromStored: try modelSpelling().canonicalDescription)
        guard differences.isEmpty else { throw WorkloadError("the model schema differs from the workload's: \(differences)") }
        var itemIDs: [PersistentIdentifier] = [], ownerIDs: [PersistentIdentifier] = []
        var seconds: Double
        do {
            let context = ModelContext(container!)
            var owners: [Owner] = [], items: [Item] = []
            owners.reserveCapacity(records / 100)
            items.reserveCapacity(records)
            (_, seconds) = try time("insert") {
                for o in 0..<records / 100 {
                    let owner = Owner(name: "owner-\(o)")
                    context.insert(owner)
                    owners.append(owner)
                    for i in o * 100..<(o + 1) * 100 {
                        let item = Item(workloadIndex: i)
                        item.owner = owner
                        items.append(item)
                    }
                }
                try context.save()
            }
            record("insert", Double(records / 100 + records) / seconds, "records/s")
            itemIDs = items.map(\.persistentModelID)
            ownerIDs = owners.map(\.persistentModelID)
            guard !itemIDs.contains(where: \.isTemporary) else { throw WorkloadError("insert left temporary identifiers") }
        }

        // 2. reopen
        container = nil
        (container, seconds) = try time("reopen") {
            let reopened = try open()
            _ = try ModelContext(reopened).fetchCount(FetchDescriptor<Owner>())
            return reopened
        }
        record("reopen", seconds * 1000, "ms")
        let c = container!

        // 3. fetch-by-id: model(for:) in a fresh context, the store-level workload's probes.
        var rng = SeededGenerator(state: 42)
        let probes = (0..<10_000).map { _ in itemIDs[Int(rng.next() % UInt64(records))] }
        do {
            let context = ModelContext(c)
            (_, seconds) = try time("fetch-by-id") {
                for id in probes { _ = try context.model(for: id, as: Item.self) }
            }
            record("fetch-by-id", Double(probes.count) / seconds, "lookups/s")
        }

        // 4. scan
        let context = ModelContext(c)
        var scanned: [Item] = []
        (scanned, seconds) = try time("scan") { try context.fetch(FetchDescriptor<Item>()) }
        guard scanned.count == records else { throw WorkloadError("scan returned \(scanned.count) items, expected \(records)") }
        record("scan", Double(records) / seconds, "records/s")

        // 5. filter: the process's first `#Predicate` fetch (it pays the one-time costs of translating one).
        var hits: [Item] = []
        (hits, seconds) = try time("filter") { try ModelContext(c).fetch(filterDescriptor(category: 42)) }
        guard hits.count == records / 100, hits.allSatisfy({ $0.category == 42 }) else { throw WorkloadError("filter returned \(hits.count) items, expected \(records / 100)") }
        record("filter", seconds * 1000, "ms")

        // 5b. filter-again: the same query with another captured value, what an application pays from then on.
        (hits, seconds) = try time(filterAgainStep) { try ModelContext(c).fetch(filterDescriptor(category: 43)) }
        guard hits.count == records / 100, hits.allSatisfy({ $0.category == 43 }) else { throw WorkloadError("filter-again returned \(hits.count) items, expected \(records / 100)") }
        record(filterAgainStep, seconds * 1000, "ms")

        // 6. update-one: a loaded object's price, one save, 100 times.
        var durations: [Double] = []
        for round in 0..<100 {
            let target = scanned[Int(rng.next() % UInt64(records))]
            durations.append(try time("update-one") {
                target.price = Double(round) + 0.5
                try context.save()
            }.1 * 1000)
        }
        record("update-one", WorkloadTiming.median(durations), "ms (median)")

        // 7. update-batch: every tenth item.
        (_, seconds) = try time("update-batch") {
            for i in stride(from: 0, to: records, by: 10) { scanned[i].price = -Double(i) }
            try context.save()
        }
        record("update-batch", Double(records / 10) / seconds, "records/s")
        guard try ModelContext(c).model(for: scanned[10].persistentModelID, as: Item.self).price == -10 else { throw WorkloadError("update-batch did not store the new price") }
        scanned = []

        // 8. unique-violation: the save fails loudly, changes nothing, and is rolled back.
        let firstOwner = try context.model(for: ownerIDs[0], as: Owner.self)
        (_, seconds) = try time("unique-violation") {
            let duplicate = Item(workloadIndex: 7)
            duplicate.owner = firstOwner
            do {
                try context.save()
                throw WorkloadError("inserting a duplicate name succeeded")
            } catch let error as StrataError where error.code == .uniqueConstraintViolation {
                context.rollback()
            }
        }
        record("unique-violation", seconds * 1000, "ms")
        guard try context.fetchCount(FetchDescriptor<Item>()) == records else { throw WorkloadError("the failed insert changed the item count") }

        // 9. cascade-delete: 10 owners; their 1,000 items go with them, in the store and in memory.
        let doomed = try ownerIDs.prefix(10).map { try context.model(for: $0, as: Owner.self) }
        (_, seconds) = try time("cascade-delete") {
            for owner in doomed { context.delete(owner) }
            try context.save()
        }
        record("cascade-delete", seconds * 1000, "ms")
        let left = try context.fetchCount(FetchDescriptor<Item>())
        guard left == records - 1_000 else { throw WorkloadError("after deleting 10 owners \(left) items remain, expected \(records - 1_000)") }

        record("size", Double(StandardWorkloadSize.bytes(directory)), "bytes")
        return figures
    }

    /// `WorkloadSchema.schema` as `@Model` spells it, what the model level must derive from `Owner`
    /// and `Item`: the same entities, attributes, unique name and cascade, with two differences of
    /// form the model layer imposes. `[Item]` is an ordered to-many (the model layer keeps array
    /// order; in SQLite that is an `owner__order` column the model level writes and the store level
    /// does not, a real cost of the model layer that the ratio includes), and the category index is
    /// `#Index<Item>([\.category])`, an index member rather than the attribute's `indexed:` flag
    /// (every backend builds the same index from either).
    static func modelSpelling() throws -> Schema {
        try Schema {
            Entity("Owner") {
                Attribute("name", .string)
                Relationship.toMany("items", "Item", inverse: "owner", ordered: true, deleteRule: .cascade)
            }
            Entity("Item") {
                Attribute("name", .string, unique: true)
                Attribute("category", .int)
                Attribute("price", .double)
                Attribute("createdAt", .date)
                Attribute("note", .string, optional: true)
                Relationship.toOne("owner", "Owner", inverse: "items")
                Index("category")
            }
        }
    }

    /// The filter steps' query as a SwiftData user writes it: `category == wanted` (a captured
    /// value), by price, descending (translated to the core's predicate and sort keys, run by the store).
    static func filterDescriptor(category wanted: Int) -> FetchDescriptor<Item> {
        FetchDescriptor<Item>(predicate: #Predicate { $0.category == wanted }, sortBy: [SortDescriptor(\.price, order: .reverse)])
    }

    /// The step beside `filter` that only the model bench has: the second `#Predicate` fetch of
    /// the process, with another captured value (see `StoreFilterAgain` for the store level's).
    static let filterAgainStep = "filter-again"
}
