/// The targets each updated record's relationships held before the save, every record's lists
/// back to back in one flat buffer that the reused save transaction keeps from save to save.
///
/// Why: an array of arrays per update (one outer array, one inner array per relationship, each
/// allocated, reference counted and freed with the save's `Write`) showed in a one-record update
/// (limit: Benchmarks/Thresholds/sqlite-update-one.txt); appending to a buffer kept across saves
/// allocates nothing.
@usableFromInline package struct SQLStoredTargets {
    /// Empty.
    @inlinable package init() {}

    /// Every list's keys, in record then relationship order.
    @usableFromInline var keys: [Int64] = []
    /// Where each list ends in `keys`: a record's lists are `ends[base ..< base + relationships]`.
    @usableFromInline var ends: [Int] = []

    /// The position the next record's first list takes: its `base`.
    @inlinable package var count: Int { ends.count }

    /// Adds a to-one's list: its target, or nothing.
    @inlinable package mutating func append(one target: Int64?) {
        if let target { keys.append(target) }
        ends.append(keys.count)
    }

    /// Adds a to-many's list.
    @inlinable package mutating func append(list targets: [Int64]) {
        keys.append(contentsOf: targets)
        ends.append(keys.count)
    }

    /// Relationship `r` of the record whose first list is at `base`.
    @inlinable package func targets(_ base: Int, _ r: Int) -> ArraySlice<Int64> {
        let lower = base + r == 0 ? 0 : ends[base + r - 1]
        return keys[lower ..< ends[base + r]]
    }

    /// Empty again; a big save's buffers are dropped rather than kept for the life of the store.
    @inlinable package mutating func removeAll() {
        if keys.capacity > Self.kept || ends.capacity > Self.kept {
            self = SQLStoredTargets()
        } else {
            keys.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
        }
    }

    /// The capacity kept from one save to the next.
    @usableFromInline static var kept: Int { 256 }
}
