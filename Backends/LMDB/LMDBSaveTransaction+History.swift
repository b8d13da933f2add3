import CLMDB
@_spi(StrataEngine) import Strata

/// How an LMDB save records its history: after the writes, in the same write transaction, from
/// the cached records as they were before the save (`Cached.original`) and as they are now, and
/// the to-many lists as they were before their first change (`oldLists`, kept only when recording).
extension LMDBSaveTransaction {
    /// Keeps a stored record's list before this save first changes it (only when recording).
    @inline(__always)
    func noteListChange(_ entity: Int, _ key: Int64, _ r: Int) throws {
        guard oldLists != nil, !isInserted(entity, key) else { return }
        let slot = Slot(entity: entity, key: key, relationship: r)
        if oldLists![slot] == nil { oldLists![slot] = try records.targets(entities[entity], key, r) }
    }

    /// Writes the save's transaction into the history (nothing when it changed no stored value).
    func recordHistory(requested: Set<PersistentIdentifier>, author: String?, file: String) throws {
        var recorder = HistoryRecorder(storeIdentifier: storeIdentifier, requested: requested)
        for e in entities.indices {
            for (i, record) in inserted[e].enumerated() where record != nil { recorder.inserted(entities[e], firstInserted[e] + Int64(i)) }
        }
        var candidates = Set<Key>()
        for (k, cached) in cache where cached.dirty && cached.original != nil && cached.current != nil { candidates.insert(k) }
        for k in touched where !isInserted(k.entity, k.key) { candidates.insert(k) }
        for slot in (oldLists ?? [:]).keys { candidates.insert(Key(entity: slot.entity, key: slot.key)) }
        for k in candidates.subtracting(deletedSet).sorted(by: { ($0.entity, $0.key) < ($1.entity, $1.key) }) {
            let entity = entities[k.entity]
            // A record the save never loaded kept its attributes and to-ones: read as it is now.
            guard let now = try load(k.entity, k.key) else { continue }
            let before = cache[k]?.original ?? now
            let new = try records.snapshot(entity, k.key, now)
            let destinations = entity.destinationNames
            let old: [RelationshipValue] = entity.relationships.indices.map { r in
                guard entity.relationshipIsToMany[r] else { return .toOne(before.toOne[r].map { records.id(destinations[r], $0) }) }
                guard let list = oldLists?[Slot(entity: k.entity, key: k.key, relationship: r)] else { return new.relationships[r] }
                return .toMany(list.map { records.id(destinations[r], $0) })
            }
            recorder.updated(entity, k.key, old: (before.attributes, old), new: (now.attributes, new.relationships))
        }
        for k in deleted where !isInserted(k.entity, k.key) {
            if let before = cache[k]?.original { recorder.deleted(entities[k.entity], k.key, attributes: before.attributes) }
        }
        guard !recorder.isEmpty else { return }
        let history = LMDBHistory(txn: txn, meta: layout.meta, file: file)
        try history.append(recorder.transaction(try history.last + 1, author: author))
    }
}
