import Strata

/// What one save returned, with snapshots converted to suite records.
struct SuiteSaveResult {
    var remapped: IdentifierRemapping
    var deleted: Set<PersistentIdentifier>
    var changed: [PersistentIdentifier: SuiteRecord]
}

/// A store of any backend behind one interface, so case bodies are not generic.
protocol SuiteStore: AnyObject, Sendable {
    var identifier: String { get }
    var capabilities: StoreCapabilities { get }
    func fetch(_ d: FetchDescriptor) throws -> [SuiteRecord]
    func fetchCount(_ d: FetchDescriptor) throws -> Int
    func fetchIdentifiers(_ d: FetchDescriptor) throws -> [PersistentIdentifier]
    func snapshot(for id: PersistentIdentifier) throws -> SuiteRecord?
    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord], updatedProperties: [PersistentIdentifier: UpdatedProperties]) throws -> SuiteSaveResult
}

extension SuiteStore {
    /// A save whose updates replace whole records.
    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord]) throws -> SuiteSaveResult {
        try save(inserted: inserted, updated: updated, deleted: deleted, updatedProperties: [:])
    }
}

/// Forwards to `Store`, converting records only through the snapshot protocol.
final class StoreBox<Store: DataStore>: SuiteStore {
    let store: Store
    init(_ store: Store) { self.store = store }

    var identifier: String { store.identifier }
    var capabilities: StoreCapabilities { store.capabilities }
    func fetch(_ d: FetchDescriptor) throws -> [SuiteRecord] { try store.fetch(d).map(SuiteRecord.init) }
    func fetchCount(_ d: FetchDescriptor) throws -> Int { try store.fetchCount(d) }
    func fetchIdentifiers(_ d: FetchDescriptor) throws -> [PersistentIdentifier] { try store.fetchIdentifiers(d) }
    func snapshot(for id: PersistentIdentifier) throws -> SuiteRecord? { try store.snapshot(for: id).map(SuiteRecord.init) }
    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord], updatedProperties: [PersistentIdentifier: UpdatedProperties]) throws -> SuiteSaveResult {
        let request = SaveRequest<Store.Snapshot>(
            inserted: inserted.map { $0.snapshot(as: Store.Snapshot.self) },
            updated: updated.map { $0.snapshot(as: Store.Snapshot.self) },
            deleted: deleted.map { $0.snapshot(as: Store.Snapshot.self) },
            updatedProperties: updatedProperties)
        let result = try store.save(request)
        return SuiteSaveResult(remapped: result.remappedIdentifiers, deleted: result.deletedIdentifiers, changed: result.changedSnapshots.mapValues(SuiteRecord.init))
    }
}
