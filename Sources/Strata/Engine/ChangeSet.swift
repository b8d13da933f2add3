/// What one save changed, by entity index and primary key.
///
/// Handed to a backend's persist step with the next state, so a backend that appends changes to a
/// journal writes only these records instead of the whole store.
@_spi(StrataEngine) public struct ChangeSet: Sendable {
    /// Keys of records inserted (and not deleted again by a cascade of the same save), in request order.
    public internal(set) var inserted: [[Int64]]
    /// Keys of records that existed before and whose stored value changed.
    public internal(set) var updated: [Set<Int64>]
    /// Keys of records that existed before and were deleted, cascades included.
    public internal(set) var deleted: [Set<Int64>]

    init(entityCount: Int) {
        inserted = Array(repeating: [], count: entityCount)
        updated = Array(repeating: [], count: entityCount)
        deleted = Array(repeating: [], count: entityCount)
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.allSatisfy(\.isEmpty) && updated.allSatisfy(\.isEmpty) && deleted.allSatisfy(\.isEmpty)
    }
}

/// What a backend's persist step receives: the state before, the state after, and the difference.
///
/// If the persist step throws, the engine keeps `previous` and the save fails with that error.
@_spi(StrataEngine) public struct CommitContext: Sendable {
    /// The committed state before this save.
    public let previous: StoreState
    /// The state this save produces.
    public let next: StoreState
    /// The records that differ between the two.
    public let changes: ChangeSet
}
