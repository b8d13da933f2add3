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

    /// A save's answer.
    public init(for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:], snapshotsToReregister: [PersistentIdentifier: T] = [:]) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
    }
}
