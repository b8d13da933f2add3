@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The per-save state of the SQLite save transaction: one value, so resetting it is assigning a
/// fresh one (`reset()`), and a field added later cannot be forgotten by a hand-written reset.
/// The rest of the transaction reaches each field by its name (the forwarding properties below).
extension SQLiteSaveTransaction {
    struct State {
        var remap = IdentifierRemapping()
        /// Per entity, the first key this save assigns and the temporary identifiers of the inserts, in
        /// key order: inserted keys are one contiguous range per entity, so no set is needed.
        var firstInserted: [Int64?]
        var temporaries: [[PersistentIdentifier]]
        var nextKeys: [Int64?]
        var writes: [Write] = []
        /// Per entity, the positions in `writes` of its inserts, in key order.
        var insertPositions: [[Int]]
        var touched = Set<Key>()
        /// Every update's relationships as stored before the save (`Write.stored` is its base).
        var storedTargets = SQLiteStoredTargets()
        var deleted: [Key] = []
        var deletedSet = Set<Key>()
        /// Rows whose unique values were held back, with the properties to set again.
        var pending: [Key: Set<PropertyReference>] = [:]
        /// Partial updates whose stored result differs from the client's snapshot: reported as changed.
        var refreshed = Set<Key>()
        /// The last reference resolved: children saved together usually point at the same parent.
        var lastReference: (id: PersistentIdentifier, destination: Int, key: Int64)?
        /// Next position at the end of an ordered list, per (child table, parent), counted during the save.
        var positions: [String: Int64] = [:]
        /// The record whose relationships are being applied; changes to any other record are the
        /// store's own and go into the save result.
        var currentWriter: Key?
        var touchedByOthers = Set<Key>()
        var lastTouched: Key?
        var lastTouchedByOther = false
        /// Records known to exist in this save (inserted, or checked once).
        var known = Set<Key>()
        /// The to-one values a held-back row should get at the end of the save.
        var intended: [Key: [Int: Int64?]] = [:]
        /// How many times the save set a to-one column after writing rows (`setColumn`); while 0, every
        /// inserted row's to-one columns are what its INSERT wrote.
        var columnWrites = 0
        /// The position in an ordered list that an INSERT gave its row for to-one `r` (request order).
        var listPlaces: [Key: [Int: Int64]] = [:]
        /// The lists of records inserted in this save as the INSERTs made them (`noteInsertedMember`).
        var insertedMembers: [ListKey: [Int64]] = [:]
        /// The list noted last and where it is in `insertedMembers`: members of one owner are
        /// usually inserted together, and appending through the index skips hashing the key.
        var lastInsertedList: (key: ListKey, index: Dictionary<ListKey, [Int64]>.Index)?

        /// The state before a save: no key assigned, nothing written.
        init(_ start: Start) {
            firstInserted = start.noKeys
            temporaries = start.noIdentifiers
            nextKeys = start.noKeys
            insertPositions = start.noPositions
        }
    }

    var remap: IdentifierRemapping { get { state.remap } _modify { yield &state.remap } }
    var firstInserted: [Int64?] { get { state.firstInserted } _modify { yield &state.firstInserted } }
    var temporaries: [[PersistentIdentifier]] { get { state.temporaries } _modify { yield &state.temporaries } }
    var nextKeys: [Int64?] { get { state.nextKeys } _modify { yield &state.nextKeys } }
    var writes: [Write] { get { state.writes } _modify { yield &state.writes } }
    var insertPositions: [[Int]] { get { state.insertPositions } _modify { yield &state.insertPositions } }
    var touched: Set<Key> { get { state.touched } _modify { yield &state.touched } }
    var storedTargets: SQLiteStoredTargets { get { state.storedTargets } _modify { yield &state.storedTargets } }
    var deleted: [Key] { get { state.deleted } _modify { yield &state.deleted } }
    var deletedSet: Set<Key> { get { state.deletedSet } _modify { yield &state.deletedSet } }
    var pending: [Key: Set<PropertyReference>] { get { state.pending } _modify { yield &state.pending } }
    var refreshed: Set<Key> { get { state.refreshed } _modify { yield &state.refreshed } }
    var lastReference: (id: PersistentIdentifier, destination: Int, key: Int64)? { get { state.lastReference } _modify { yield &state.lastReference } }
    var positions: [String: Int64] { get { state.positions } _modify { yield &state.positions } }
    var currentWriter: Key? { get { state.currentWriter } _modify { yield &state.currentWriter } }
    var touchedByOthers: Set<Key> { get { state.touchedByOthers } _modify { yield &state.touchedByOthers } }
    var lastTouched: Key? { get { state.lastTouched } _modify { yield &state.lastTouched } }
    var lastTouchedByOther: Bool { get { state.lastTouchedByOther } _modify { yield &state.lastTouchedByOther } }
    var known: Set<Key> { get { state.known } _modify { yield &state.known } }
    var intended: [Key: [Int: Int64?]] { get { state.intended } _modify { yield &state.intended } }
    var columnWrites: Int { get { state.columnWrites } _modify { yield &state.columnWrites } }
    var listPlaces: [Key: [Int: Int64]] { get { state.listPlaces } _modify { yield &state.listPlaces } }
    var insertedMembers: [ListKey: [Int64]] { get { state.insertedMembers } _modify { yield &state.insertedMembers } }
    var lastInsertedList: (key: ListKey, index: Dictionary<ListKey, [Int64]>.Index)? { get { state.lastInsertedList } _modify { yield &state.lastInsertedList } }
}
