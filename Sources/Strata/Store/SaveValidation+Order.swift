/// The request phase's order for inserts and updates, one home for every backend (docs/store-contract.md
/// §5, "Which fault a save reports"): a backend resolves the snapshot's entity first
/// (`entity(of:given:in:)`, or its own fast path to the same answer), then calls these, then checks
/// the values (`checkValues`) and the references.
extension SaveValidation {
    /// The first primary key no record may have: keys run from 1 below it, and are never reused,
    /// so an entity whose counter reached it inserts no more (`keysExhausted`). `StoreState.keyLimit`
    /// is this; here, outside the engine's SPI, so a backend's inlinable save can name it.
    @inlinable
    public static var keyLimit: Int64 { .max }

    /// Insert `n` of `inserted` after its entity: the identifier must be temporary, the entity's next
    /// key (`key`) below `keyLimit` (keys are never reused, so a counter at the limit inserts no
    /// more), and the identifier not inserted before in this save; its permanent identifier
    /// (`permanent(key)`) is recorded in `remap`. The caller then advances its key counter.
    ///
    /// The identifier is borrowed where the request holds it (read in place from `inserted`, never
    /// passed as a value): the remapping's copy is the only one. Taking it as a parameter cost the
    /// shared engine one more copy per insert (memory insert +6.7%, `make perfcheck`), which is why
    /// the engine once wrote these checks out itself.
    @inlinable @inline(__always)
    public static func assignKey<S: DataStoreSnapshot>(_ n: Int, of inserted: UnsafeBufferPointer<S>, entity: EntitySchema, next key: Int64, remapping remap: inout IdentifierRemapping, permanent: (Int64) -> PersistentIdentifier) throws {
        guard inserted[n].persistentIdentifier.isTemporary else { throw permanentOnInsert(inserted[n].persistentIdentifier, entity) }
        guard key < keyLimit else { throw StrataError.keysExhausted(entity) }
        guard remap.insert(permanent(key), for: inserted[n].persistentIdentifier) else { throw twice(inserted[n].persistentIdentifier, entity, "inserted") }
    }

    /// One update after its entity: the identifier must name a record stored before the save
    /// (`existingKey`, `isStored` answering for a key), and not be updated before in this save
    /// (`seen`; a request of one update, `alone`, skips the set). Returns the record's key.
    @inlinable
    public static func updatedKey(_ id: PersistentIdentifier, of entity: EntitySchema, storeIdentifier: String, seen: inout Set<RecordKey>, alone: Bool, isStored: (Int64) throws -> Bool) throws -> Int64 {
        let key = try existingKey(id, of: entity, verb: "update", storeIdentifier: storeIdentifier, exists: isStored)
        if !alone { guard seen.insert(RecordKey(entity: entity.index, key: key)).inserted else { throw twice(id, entity, "updated") } }
        return key
    }
}
