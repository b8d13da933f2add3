/// The changes a context saves, as the framework hands them to a custom store (SwiftData's
/// `DataStoreSaveChangesRequest`).
///
/// `inserted` snapshots carry temporary identifiers (the store answers with permanent ones in the
/// result's `remappedIdentifiers`) and may reference each other by them; `updated` snapshots hold
/// every property of the record; `deleted` snapshots name the records to delete.
public struct DataStoreSaveChangesRequest<SnapshotType: DataStoreSnapshot>: Sendable {
    /// The editing state of the context saving.
    public let editingState: EditingState
    /// New records, under temporary identifiers.
    public let inserted: [SnapshotType]
    /// Changed records, whole.
    public let updated: [SnapshotType]
    /// Records to delete.
    public let deleted: [SnapshotType]

    init(editingState: EditingState, inserted: [SnapshotType], updated: [SnapshotType], deleted: [SnapshotType]) {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}

/// What a custom store answers a save with (SwiftData's `DataStoreSaveChangesResult`).
public final class DataStoreSaveChangesResult<T: DataStoreSnapshot>: Sendable {
    /// The identifier of the store that saved.
    public let storeIdentifier: String
    /// The permanent identifier of every inserted record, by its temporary identifier.
    public let remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// Records the store changed beyond what it was sent, by identifier, for the framework to
    /// refresh.
    public let snapshotsToReregister: [PersistentIdentifier: T]
    /// The store's history token after this save, for a store that keeps history
    /// (`HistoryProviding`). Kept as the store gave it; the framework does not read it yet
    /// (history through a custom store: see `HistoryProviding`, docs/history.md).
    public let historyToken: (any HistoryToken)?

    /// A save's answer.
    public convenience init(for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:], snapshotsToReregister: [PersistentIdentifier: T] = [:]) {
        self.init(for: storeIdentifier, remappedIdentifiers: remappedIdentifiers, snapshotsToReregister: snapshotsToReregister, historyToken: nil)
    }

    /// A save's answer with the store's history token after it.
    public init(
        for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:], snapshotsToReregister: [PersistentIdentifier: T] = [:],
        historyToken: (any HistoryToken)?
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
        self.historyToken = historyToken
    }
}
