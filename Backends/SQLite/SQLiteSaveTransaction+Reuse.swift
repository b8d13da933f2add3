import Strata

/// One save transaction object per store, reset at the end of every save instead of allocated
/// and torn down per save.
///
/// Why: a one-record update allocated the object, retained its six shared per-entity arrays and
/// the connection, built a dozen empty collections, and released all of it again: about 1,500
/// instructions of a 38,500-instruction save, before and after any work. Reset touches only what
/// the last save changed (a collection still empty is left alone).
///
/// Safety: `reset()` (deferred by `SQLiteStore.save`) sets every piece of per-save state back to
/// what `init` gives it, so no save sees anything of the one before — whether that one committed,
/// failed or was rolled back — and no save's records stay in memory after it. Each
/// `var` of the transaction is listed here; a new one must be added (the suite's repeated saves,
/// failed saves followed by good ones, would catch a leak as a wrong result).
extension SQLiteSaveTransaction {
    /// Every per-save property back to its state in `init`. Large buffers are dropped, not kept,
    /// so one big save does not pin its memory for the life of the store.
    func reset() {
        if !remap.isEmpty { remap = IdentifierRemapping() }
        firstInserted = start.noKeys
        temporaries = start.noIdentifiers
        nextKeys = start.noKeys
        insertPositions = start.noPositions
        if writes.capacity > Self.keptWrites { writes = [] } else if !writes.isEmpty { writes.removeAll(keepingCapacity: true) }
        if !touched.isEmpty { touched = [] }
        storedTargets.removeAll()
        if !deleted.isEmpty { deleted = [] }
        if !deletedSet.isEmpty { deletedSet = [] }
        if !pending.isEmpty { pending = [:] }
        if !refreshed.isEmpty { refreshed = [] }
        lastReference = nil
        if !positions.isEmpty { positions = [:] }
        currentWriter = nil
        if !touchedByOthers.isEmpty { touchedByOthers = [] }
        lastTouched = nil
        lastTouchedByOther = false
        if !known.isEmpty { known = [] }
        if !intended.isEmpty { intended = [:] }
        columnWrites = 0
        if !listPlaces.isEmpty { listPlaces = [:] }
        if !insertedMembers.isEmpty { insertedMembers = [:] }
        lastInsertedList = nil
    }

    /// The `writes` capacity kept from one save to the next: small saves reuse the buffer.
    static var keptWrites: Int { 64 }
}
