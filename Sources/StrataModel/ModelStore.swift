/// A store of any backend behind one non-generic interface, speaking `DefaultSnapshot`.
///
/// A backend whose snapshot type is `DefaultSnapshot` (most) passes through without a copy; any
/// other snapshot type is converted through the `DataStoreSnapshot` protocol, so the model layer
/// works with every backend, including ones written after it.
protocol ModelStore: Sendable {
    var identifier: String { get }
    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [DefaultSnapshot]
    func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot?
    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int
    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier]
    func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot>
}

final class ModelStoreBox<Store: DataStore>: ModelStore {
    let store: Store
    init(_ store: Store) { self.store = store }

    var identifier: String { store.identifier }

    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [DefaultSnapshot] {
        let rows = try store.fetch(descriptor)
        // The same type: reinterpreted, not cast (`as?` on an array checks every element, 400
        // instructions per record in a 10,000-record fetch).
        if Store.Snapshot.self == DefaultSnapshot.self { return _identicalCast(rows, to: [DefaultSnapshot].self) }
        return rows.map(Self.read)
    }

    /// The store's point lookup (store contract §6): one keyed read where the backend has one.
    func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? {
        guard let row = try store.snapshot(for: id) else { return nil }
        if Store.Snapshot.self == DefaultSnapshot.self { return _identicalCast(row, to: DefaultSnapshot.self) }
        return Self.read(row)
    }

    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int { try store.fetchCount(descriptor) }
    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier] { try store.fetchIdentifiers(descriptor) }

    func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        if let same = request as? SaveRequest<Store.Snapshot>, let result = try store.save(same) as? SaveResult<DefaultSnapshot> { return result }
        func write(_ s: DefaultSnapshot) -> Store.Snapshot {
            Store.Snapshot(entity: s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributes, relationships: s.relationships)
        }
        let converted = SaveRequest<Store.Snapshot>(
            inserted: request.inserted.map(write), updated: request.updated.map(write), deleted: request.deleted.map(write),
            updatedProperties: request.updatedProperties)
        let result = try store.save(converted)
        return SaveResult(
            storeIdentifier: result.storeIdentifier, remappedIdentifiers: result.remappedIdentifiers,
            deletedIdentifiers: result.deletedIdentifiers, changedSnapshots: result.changedSnapshots.mapValues(Self.read))
    }

    private static func read(_ s: Store.Snapshot) -> DefaultSnapshot {
        DefaultSnapshot(entity: s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributeValues, relationships: s.relationshipValues)
    }
}
