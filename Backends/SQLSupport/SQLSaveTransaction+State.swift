@_spi(StrataEngine) import Strata

/// The per-save state of the SQL save transaction: one value, so resetting it is assigning a
/// fresh one (`reset()`), and a field added later cannot be forgotten by a hand-written reset.
/// Not generic: the same for every backend.
@usableFromInline package struct SQLSaveState {
    @usableFromInline package var remap = IdentifierRemapping()
    /// Per entity, the first key this save assigns and the temporary identifiers of the inserts, in
    /// key order: inserted keys are one contiguous range per entity, so no set is needed.
    @usableFromInline package var firstInserted: [Int64?]
    @usableFromInline package var temporaries: [[PersistentIdentifier]]
    @usableFromInline package var nextKeys: [Int64?]
    @usableFromInline package var writes: [SQLSaveWrite] = []
    /// Per entity, the positions in `writes` of its inserts, in key order.
    @usableFromInline package var insertPositions: [[Int]]
    @usableFromInline package var touched = Set<RecordKey>()
    /// Every update's relationships as stored before the save (`SQLSaveWrite.stored` is its base).
    @usableFromInline package var storedTargets = SQLStoredTargets()
    @usableFromInline package var deleted: [RecordKey] = []
    @usableFromInline package var deletedSet = Set<RecordKey>()
    /// Rows whose unique values were held back, with the properties to set again.
    @usableFromInline package var pending: [RecordKey: Set<PropertyReference>] = [:]
    /// Partial updates whose stored result differs from the client's snapshot: reported as changed.
    @usableFromInline package var refreshed = Set<RecordKey>()
    /// The last reference resolved: children saved together usually point at the same parent.
    @usableFromInline package var lastReference: (id: PersistentIdentifier, destination: Int, key: Int64)?
    /// Next position at the end of an ordered list, per (child table, parent), counted during the save.
    @usableFromInline package var positions: [String: Int64] = [:]
    /// The record whose relationships are being applied; changes to any other record are the
    /// store's own and go into the save result.
    @usableFromInline package var currentWriter: RecordKey?
    @usableFromInline package var touchedByOthers = Set<RecordKey>()
    @usableFromInline package var lastTouched: RecordKey?
    @usableFromInline package var lastTouchedByOther = false
    /// Records known to exist in this save (inserted, or checked once).
    @usableFromInline package var known = Set<RecordKey>()
    /// The to-one values a held-back row should get at the end of the save.
    @usableFromInline package var intended: [RecordKey: [Int: Int64?]] = [:]
    /// How many times the save set a to-one column after writing rows (`setColumn`); while 0, every
    /// inserted row's to-one columns are what its INSERT wrote.
    @usableFromInline package var columnWrites = 0
    /// The position in an ordered list that an INSERT gave its row for to-one `r` (request order).
    @usableFromInline package var listPlaces: [RecordKey: [Int: Int64]] = [:]
    /// The lists of records inserted in this save as the INSERTs made them (`noteInsertedMember`).
    @usableFromInline package var insertedMembers: [SQLListKey: [Int64]] = [:]
    /// The list noted last and where it is in `insertedMembers`: members of one owner are
    /// usually inserted together, and appending through the index skips hashing the key.
    @usableFromInline package var lastInsertedList: (key: SQLListKey, index: Dictionary<SQLListKey, [Int64]>.Index)?

    /// The state before a save: no key assigned, nothing written.
    @inlinable
    package init(_ start: SQLSaveStart) {
        firstInserted = start.noKeys
        temporaries = start.noIdentifiers
        nextKeys = start.noKeys
        insertPositions = start.noPositions
    }
}

/// The rest of the transaction reaches each field of its state by its name.
extension SQLSaveTransaction {
    @inlinable package var remap: IdentifierRemapping { get { state.remap } _modify { yield &state.remap } }
    @inlinable package var firstInserted: [Int64?] { get { state.firstInserted } _modify { yield &state.firstInserted } }
    @inlinable package var temporaries: [[PersistentIdentifier]] { get { state.temporaries } _modify { yield &state.temporaries } }
    @inlinable package var nextKeys: [Int64?] { get { state.nextKeys } _modify { yield &state.nextKeys } }
    @inlinable package var writes: [Write] { get { state.writes } _modify { yield &state.writes } }
    @inlinable package var insertPositions: [[Int]] { get { state.insertPositions } _modify { yield &state.insertPositions } }
    @inlinable package var touched: Set<Key> { get { state.touched } _modify { yield &state.touched } }
    @inlinable package var storedTargets: SQLStoredTargets { get { state.storedTargets } _modify { yield &state.storedTargets } }
    @inlinable package var deleted: [Key] { get { state.deleted } _modify { yield &state.deleted } }
    @inlinable package var deletedSet: Set<Key> { get { state.deletedSet } _modify { yield &state.deletedSet } }
    @inlinable package var pending: [Key: Set<PropertyReference>] { get { state.pending } _modify { yield &state.pending } }
    @inlinable package var refreshed: Set<Key> { get { state.refreshed } _modify { yield &state.refreshed } }
    @inlinable package var lastReference: (id: PersistentIdentifier, destination: Int, key: Int64)? { get { state.lastReference } _modify { yield &state.lastReference } }
    @inlinable package var positions: [String: Int64] { get { state.positions } _modify { yield &state.positions } }
    @inlinable package var currentWriter: Key? { get { state.currentWriter } _modify { yield &state.currentWriter } }
    @inlinable package var touchedByOthers: Set<Key> { get { state.touchedByOthers } _modify { yield &state.touchedByOthers } }
    @inlinable package var lastTouched: Key? { get { state.lastTouched } _modify { yield &state.lastTouched } }
    @inlinable package var lastTouchedByOther: Bool { get { state.lastTouchedByOther } _modify { yield &state.lastTouchedByOther } }
    @inlinable package var known: Set<Key> { get { state.known } _modify { yield &state.known } }
    @inlinable package var intended: [Key: [Int: Int64?]] { get { state.intended } _modify { yield &state.intended } }
    @inlinable package var columnWrites: Int { get { state.columnWrites } _modify { yield &state.columnWrites } }
    @inlinable package var listPlaces: [Key: [Int: Int64]] { get { state.listPlaces } _modify { yield &state.listPlaces } }
    @inlinable package var insertedMembers: [ListKey: [Int64]] { get { state.insertedMembers } _modify { yield &state.insertedMembers } }
    @inlinable package var lastInsertedList: (key: ListKey, index: Dictionary<ListKey, [Int64]>.Index)? { get { state.lastInsertedList } _modify { yield &state.lastInsertedList } }
}
