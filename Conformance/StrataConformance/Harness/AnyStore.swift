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
    /// A save naming its author (history cases).
    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord], updatedProperties: [PersistentIdentifier: UpdatedProperties], author: String?) throws -> SuiteSaveResult
    /// A save of inserts that chooses first keys (`SaveRequest.firstKeys`, chosen-key cases).
    func save(inserted: [SuiteRecord], firstKeys: [String: Int64]) throws -> SuiteSaveResult
    /// The store's history (`HistoryRecordingStore`); `unsupported` when it keeps none.
    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction]
    /// Deletes the store's history through `token`; `unsupported` when it keeps none.
    func deleteHistory(through token: StoreHistoryToken) throws
}

extension SuiteStore {
    /// A save whose updates replace whole records.
    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord]) throws -> SuiteSaveResult {
        try save(inserted: inserted, updated: updated, deleted: deleted, updatedProperties: [:])
    }

    /// A store that keeps no history (the differential oracle) ignores the author.
    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord], updatedProperties: [PersistentIdentifier: UpdatedProperties], author: String?) throws -> SuiteSaveResult {
        try save(inserted: inserted, updated: updated, deleted: deleted, updatedProperties: updatedProperties)
    }

    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        throw StrataError(.unsupported, "\(Self.self) keeps no history.")
    }

    /// A store that chooses no keys (the differential oracle) refuses.
    func save(inserted: [SuiteRecord], firstKeys: [String: Int64]) throws -> SuiteSaveResult {
        throw StrataError(.unsupported, "\(Self.self) chooses no keys.")
    }

    func deleteHistory(through token: StoreHistoryToken) throws {
        throw StrataError(.unsupported, "\(Self.self) keeps no history.")
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
        try save(inserted: inserted, updated: updated, deleted: deleted, updatedProperties: updatedProperties, author: nil)
    }

    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord], updatedProperties: [PersistentIdentifier: UpdatedProperties], author: String?) throws -> SuiteSaveResult {
        let request = SaveRequest<Store.Snapshot>(
            inserted: inserted.map { $0.snapshot(as: Store.Snapshot.self) },
            updated: updated.map { $0.snapshot(as: Store.Snapshot.self) },
            deleted: deleted.map { $0.snapshot(as: Store.Snapshot.self) },
            updatedProperties: updatedProperties, author: author)
        let result = try store.save(request)
        return SuiteSaveResult(remapped: result.remappedIdentifiers, deleted: result.deletedIdentifiers, changed: result.changedSnapshots.mapValues(SuiteRecord.init))
    }

    func save(inserted: [SuiteRecord], firstKeys: [String: Int64]) throws -> SuiteSaveResult {
        var request = SaveRequest<Store.Snapshot>(inserted: inserted.map { $0.snapshot(as: Store.Snapshot.self) })
        request.firstKeys = firstKeys
        let result = try store.save(request)
        return SuiteSaveResult(remapped: result.remappedIdentifiers, deleted: result.deletedIdentifiers, changed: result.changedSnapshots.mapValues(SuiteRecord.init))
    }

    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try history().fetchHistory(query)
    }

    func deleteHistory(through token: StoreHistoryToken) throws {
        try history().deleteHistory(through: token)
    }

    private func history() throws -> any HistoryRecordingStore {
        guard let store = store as? any HistoryRecordingStore else {
            throw StrataError(.unsupported, "\(Store.self) keeps no history (it is not a HistoryRecordingStore).")
        }
        return store
    }
}
