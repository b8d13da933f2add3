/// One atomic change to a store: records to insert, update and delete.
///
/// Inserted snapshots carry temporary identifiers; they may reference each other by those. Updated
/// snapshots replace the whole stored record (every attribute and relationship), unless
/// `updatedProperties` lists what they write: then only those properties. Deleted snapshots
/// only need the right identifier. The store applies inserts and updates first, then deletes with
/// their delete rules, then validates; if anything fails, nothing changes.
public struct SaveRequest<Snapshot: DataStoreSnapshot>: Sendable {
    /// Records to insert (temporary identifiers).
    public var inserted: [Snapshot]
    /// Records to replace (permanent identifiers).
    public var updated: [Snapshot]
    /// Records to delete (permanent identifiers).
    public var deleted: [Snapshot]
    /// For updates listed here, the properties they write (the others keep their stored values)
    /// and, optionally, what the writer saw in them (a conflict check). Updates not listed replace
    /// the whole record.
    public var updatedProperties: [PersistentIdentifier: UpdatedProperties] = [:]
    /// Who saves, as a store that records history keeps it in the save's transaction
    /// (SwiftData's `ModelContext.author`); ignored by a store that does not record.
    public var author: String?
    /// Per entity name, the primary key the save's first insert of that entity takes instead of
    /// the entity's next key; the entity's other inserts in the save follow it one by one. It must
    /// not be below the next key (keys are never reused: `invalidRequest`). Honoured by stores
    /// that declare `StoreCapabilities.chosenKeys` (every built-in one); a caller checks the
    /// capability first, as another store may ignore it (docs/store-contract.md §1, "Chosen keys").
    /// `StoreCopy` uses it to keep keys across gaps.
    public var firstKeys: [String: Int64] = [:]

    /// Describes a save.
    public init(inserted: [Snapshot] = [], updated: [Snapshot] = [], deleted: [Snapshot] = [], updatedProperties: [PersistentIdentifier: UpdatedProperties] = [:], author: String? = nil) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.updatedProperties = updatedProperties
        self.author = author
    }

    /// Whether the request changes nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What a successful save did, so a client can refresh without refetching.
public struct SaveResult<Snapshot: DataStoreSnapshot>: Sendable {
    /// The store identifier.
    public var storeIdentifier: String
    /// Temporary identifier → permanent identifier, for every inserted record.
    public var remappedIdentifiers: IdentifierRemapping
    /// Every record deleted, the ones deleted by cascade included.
    public var deletedIdentifiers: Set<PersistentIdentifier>
    /// The new state of every surviving record the store changed on its own (inverse maintenance,
    /// nullified relationships), keyed by identifier. Records the request itself wrote are included
    /// when the store changed them beyond what was sent.
    public var changedSnapshots: [PersistentIdentifier: Snapshot]

    /// Describes a save's outcome.
    public init(storeIdentifier: String, remappedIdentifiers: IdentifierRemapping, deletedIdentifiers: Set<PersistentIdentifier>, changedSnapshots: [PersistentIdentifier: Snapshot]) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.deletedIdentifiers = deletedIdentifiers
        self.changedSnapshots = changedSnapshots
    }
}
