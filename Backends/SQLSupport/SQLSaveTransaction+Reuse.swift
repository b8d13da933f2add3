@_spi(StrataEngine) import Strata

/// One save transaction object per store, reset at the end of every save instead of allocated
/// and torn down per save.
///
/// Why: a one-record update allocated the object, retained its six shared per-entity arrays and
/// the connection, built a dozen empty collections, and released all of it again: about 1,500
/// instructions of a 38,500-instruction save, before and after any work.
///
/// Safety: `reset()` (deferred by the store's save, e.g. `SQLiteStore.save`) assigns a fresh per-save `State`, so no save
/// sees anything of the one before — whether that one committed, failed or was rolled back — and no
/// save's records stay in memory after it. Nothing is reset by hand: a field added to `State` starts
/// fresh with every save.
extension SQLSaveTransaction {
    /// A fresh per-save state. Two buffers keep their capacity from one small save to the next
    /// (measured to matter for update-one: `writes`, and the flat `storedTargets`, commit 3a5582f);
    /// a big save's are dropped, so it does not pin its memory for the life of the store.
    @inlinable package func reset() {
        var writes: [Write] = []
        if state.writes.capacity <= Self.keptWrites {
            swap(&writes, &state.writes)
            writes.removeAll(keepingCapacity: true)
        }
        var storedTargets = SQLStoredTargets()
        swap(&storedTargets, &state.storedTargets)
        storedTargets.removeAll()
        state = State(start)
        state.writes = writes
        state.storedTargets = storedTargets
    }

    /// The `writes` capacity kept from one save to the next: small saves reuse the buffer.
    @inlinable package static var keptWrites: Int { 64 }
}
