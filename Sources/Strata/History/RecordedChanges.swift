/// One kind of change a `HistoryRecorder` collected (its inserts, updates or deletes), with each
/// change's record, handed on in entity then key order.
///
/// Changes mostly arrive in that order already (an insert's records, a sorted list of updates), so
/// the list notes whether each one followed the one before and is sorted only when one did not —
/// then by index, without moving the changes themselves. Sorting 10,100 `(RecordKey,
/// StoreHistoryChange)` pairs and mapping them out cost an insert save 6.8 M instructions.
struct RecordedChanges: Sendable {
    private(set) var keys: [RecordKey] = []
    private(set) var changes: [StoreHistoryChange] = []
    private var isOrdered = true

    var count: Int { changes.count }
    var isEmpty: Bool { changes.isEmpty }

    mutating func reserve(_ more: Int) {
        keys.reserveCapacity(keys.count + more)
        changes.reserveCapacity(changes.count + more)
    }

    mutating func append(_ key: RecordKey, _ change: StoreHistoryChange) {
        if isOrdered, let last = keys.last, (last.entity, last.key) >= (key.entity, key.key) { isOrdered = false }
        keys.append(key)
        changes.append(change)
    }

    /// The changes in entity then key order.
    func ordered() -> [StoreHistoryChange] {
        if isOrdered { return changes }
        return keys.indices.sorted { (keys[$0].entity, keys[$0].key) < (keys[$1].entity, keys[$1].key) }.map { changes[$0] }
    }
}
