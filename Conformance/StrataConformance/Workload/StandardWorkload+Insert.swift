import Foundation
import Strata

extension StandardWorkload {
    /// The records the workload's `insert` step saves: N / 100 owners, then N items, each item
    /// pointing at its owner (100 per owner), all with temporary identifiers.
    public static func insertedRecords<Snapshot: DataStoreSnapshot>(_: Snapshot.Type, records: Int) -> (owners: [Snapshot], items: [Snapshot]) {
        let schema = WorkloadSchema.schema
        let owner = schema.entity(named: "Owner")!, item = schema.entity(named: "Item")!
        let owners = (0..<records / 100).map { i in
            Snapshot(entity: owner, persistentIdentifier: .temporary(entity: "Owner"), attributes: [.string("owner-\(i)")], relationships: [.toMany([])])
        }
        let items = (0..<records).map { i in
            Snapshot(entity: item, persistentIdentifier: .temporary(entity: "Item"), attributes: WorkloadSchema.itemValues(i), relationships: [.toOne(owners[i / 100].persistentIdentifier)])
        }
        return (owners, items)
    }

    /// A store in `directory` as the workload's `insert` step leaves it, closed again: what the raw
    /// parse baselines (JSON, CSV) read to compare with the backend's `reopen`.
    public static func populate<Store: DataStore>(_ factory: StoreFactory<Store>, directory: URL, records: Int) throws {
        let (owners, items) = insertedRecords(Store.Snapshot.self, records: records)
        let store = try Store(factory.configuration(directory, WorkloadSchema.schema))
        _ = try store.save(SaveRequest(inserted: owners + items))
    }
}
