/// A store of any backend behind one non-generic interface.
///
/// Reads hand out the backend's own snapshots as `StoredSnapshot`s (a `DefaultSnapshot` inline and
/// without a copy; any other type as it is, read through `DataStoreSnapshot`), so the model layer
/// works with every backend, including ones written after it, and never decodes a value nobody
/// reads. Saves speak `DefaultSnapshot`: the model layer builds its requests from its objects.
protocol ModelStore: Sendable {
    var identifier: String { get }
    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [StoredSnapshot]
    func snapshot(for id: PersistentIdentifier) throws -> StoredSnapshot?
    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int
    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier]
    func save(_ request: SaveRequest<Strata.DefaultSnapshot>) throws -> SaveResult<Strata.DefaultSnapshot>
    /// The store's history (`HistoryRecordingStore`); `unsupported` when it keeps none.
    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction]
    /// Deletes the store's history through `token`; `unsupported` when it keeps none.
    func deleteHistory(through token: StoreHistoryToken) throws
    /// A custom store's own history of type `T` (SwiftData's `HistoryProviding`), `nil` when the
    /// store provides none of that type.
    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?
    /// Deletes a custom store's own history of type `T`; `false` when it provides none.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool
    /// Whether the store reads `ContextFetches.current` (a custom store's adapter): decided when
    /// the store is opened, so a context fetch does not test a conformance each time.
    var readsContextFetches: Bool { get }
    /// New sources of wake-ups after the store's commits by any process (`WatchableStore`); none
    /// for a store that offers no way to be woken.
    func makeWakeSources() throws -> [any StoreWakeSource]
    /// Makes the next read see every commit made so far (`WatchableStore.lookForCommits`).
    func lookForCommits() throws
}

extension ModelStore {
    /// Only a boxed custom-store adapter reads the context's fetch.
    var readsContextFetches: Bool { false }
    /// A store that cannot wake readers: only this container's own saves wake its live sequences.
    func makeWakeSources() throws -> [any StoreWakeSource] { [] }
    /// A store that names no files sees only this container's saves, which it reads directly.
    func lookForCommits() throws {}

    /// A store without history (a migration's staging store) refuses.
    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        throw noHistory
    }

    /// A store without history (a migration's staging store) refuses.
    func deleteHistory(through token: StoreHistoryToken) throws {
        throw noHistory
    }

    /// Only a boxed custom store provides its own history.
    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? { nil }

    /// Only a boxed custom store provides its own history.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool { false }

    /// The error of both history requirements on a store without history.
    private var noHistory: StrataError { StrataError(.unsupported, "This store keeps no history.") }
}

final class ModelStoreBox<Store: Strata.DataStore>: ModelStore {
    let store: Store
    let readsContextFetches: Bool
    init(_ store: Store) {
        self.store = store
        readsContextFetches = store is any ReadsContextFetches
    }

    var identifier: String { store.identifier }

    /// The store's rows as they are: a `DefaultSnapshot` moved into its wrapper (reinterpreted, not
    /// cast: `as?` on an array checks every element), any other snapshot type kept, not converted.
    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [StoredSnapshot] {
        [StoredSnapshot](taking: try store.fetch(descriptor))
    }

    /// The store's point lookup (store contract §6): one keyed read where the backend has one.
    ///
    /// A `DefaultSnapshot` is moved out of the store's answer, not copied: this generic code runs
    /// unspecialized, where the copy and the two destructions went through value witnesses (about
    /// 500 instructions a lookup; callgrind, `StrataPeers --only strata-model --step fetch-by-id`).
    func snapshot(for id: PersistentIdentifier) throws -> StoredSnapshot? {
        var row = try store.snapshot(for: id)
        if Store.Snapshot.self == Strata.DefaultSnapshot.self {
            return Self.takeDefault(&row).map { .plain($0) }
        }
        guard let row else { return nil }
        return StoredSnapshot(row)
    }

    /// Moves the `DefaultSnapshot?` at `pointer` out, leaving `nil` (`Store.Snapshot` is
    /// `DefaultSnapshot` under another name). A raw pointer, so that no generic helper of the
    /// standard library runs unspecialized (`withUnsafeMutablePointer` cost more than the copy).
    @inline(__always)
    private static func takeDefault(_ pointer: UnsafeMutableRawPointer) -> Strata.DefaultSnapshot? {
        pointer.assumingMemoryBound(to: Strata.DefaultSnapshot?.self).pointee.take()
    }

    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int { try store.fetchCount(descriptor) }
    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier] { try store.fetchIdentifiers(descriptor) }

    func save(_ request: SaveRequest<Strata.DefaultSnapshot>) throws -> SaveResult<Strata.DefaultSnapshot> {
        if let same = request as? SaveRequest<Store.Snapshot>, let result = try store.save(same) as? SaveResult<Strata.DefaultSnapshot> { return result }
        // Converted by the snapshot type's own witness, compiled for that type (see `converting`).
        let result = try store.save(Store.Snapshot.converting(request))
        return SaveResult(
            storeIdentifier: result.storeIdentifier, remappedIdentifiers: result.remappedIdentifiers,
            deletedIdentifiers: result.deletedIdentifiers, changedSnapshots: result.changedSnapshots.mapValues(Self.read))
    }

    private static func read(_ s: Store.Snapshot) -> Strata.DefaultSnapshot {
        Strata.DefaultSnapshot(entity: s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributeValues, relationships: s.relationshipValues)
    }

    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] { try history().fetchHistory(query) }

    func deleteHistory(through token: StoreHistoryToken) throws { try history().deleteHistory(through: token) }

    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        try (store as? any ProvidesCustomHistory)?.providedHistory(descriptor)
    }

    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool {
        try (store as? any ProvidesCustomHistory)?.deleteProvidedHistory(descriptor) ?? false
    }

    func makeWakeSources() throws -> [any StoreWakeSource] {
        guard let watchable = store as? any WatchableStore else { return [] }
        return [try watchable.makeWakeSource()]
    }

    func lookForCommits() throws { try (store as? any WatchableStore)?.lookForCommits() }

    /// The store as a history store, if it records history.
    private func history() throws -> any HistoryRecordingStore {
        guard let history = store as? any HistoryRecordingStore, store.configuration.recordsHistory else {
            throw StrataError(.unsupported, "This \(Store.self) does not record history: open it with a configuration whose `recordsHistory` is true (SQLite, LMDB, memory).")
        }
        return history
    }
}
