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

    /// Writes the save's transaction into the history (nothing when it changed no stored value),
    /// numbered after `last` when the store knows the newest number still holds (`LMDBStore`'s
    /// `historyLast`), else after the newest in the environment (`LMDBHistory.newest`). Returns the
    /// number written, or `nil`.
    ///
    /// The values before the save are the cached records as the save first read them
    /// (`Cached.original`) and the lists kept before their first change (`oldLists`); after, the
    /// cached records as the save leaves them. A relationship is turned into identifiers only when
    /// it changed: an unchanged one is the same placeholder on both sides, which the recorder skips.
    func recordHistory<S: DataStoreSnapshot>(_ request: SaveRequest<S>, file: String, last: Int64?) throws -> Int64? {
        var recorder = HistoryRecorder(storeIdentifier: storeIdentifier, request: request)
        recorder.reserveInserts(inserted.reduce(0) { $0 + $1.count })
        for e in entities.indices {
            for (i, record) in inserted[e].enumerated() where record != nil { recorder.inserted(entities[e], firstInserted[e] + Int64(i)) }
        }
        var candidates: [Key] = []
        for (k, cached) in cache where cached.dirty && cached.original != nil && cached.current != nil { candidates.append(k) }
        for k in touched where !isInserted(k.entity, k.key) { candidates.append(k) }
        if let oldLists { for slot in oldLists.keys { candidates.append(Key(entity: slot.entity, key: slot.key)) } }
        if candidates.count > 1 || !deletedSet.isEmpty {
            // Several records (or deletes): each once, none deleted, in entity then key order. A
            // one-record update, the commonest save, builds no set and sorts nothing.
            candidates = Set(candidates).subtracting(deletedSet).sorted(by: { ($0.entity, $0.key) < ($1.entity, $1.key) })
        }
        if candidates.count == 1, deleted.isEmpty, recorder.isEmpty, let number = try recordOneUpdate(request, candidates[0], file: file, last: last) {
            return number == 0 ? nil : number
        }
        for k in candidates {
            let entity = entities[k.entity]
            // A record the save never loaded kept its attributes and to-ones: read as it is now.
            guard let now = try load(k.entity, k.key) else { continue }
            let before = cache[k]?.original ?? now
            let destinations = entity.destinationNames
            if oldLists?.isEmpty ?? true, before.toOne == now.toOne {
                // No list kept and no to-one moved: no relationship changed, so no lists at all
                // (the recorder compares none).
                recorder.updated(entity, k.key, old: (before.attributes, []), new: (now.attributes, []))
                continue
            }
            var old: [RelationshipValue] = [], new: [RelationshipValue] = []
            old.reserveCapacity(destinations.count)
            new.reserveCapacity(destinations.count)
            for r in destinations.indices {
                if entity.relationshipIsToMany[r] {
                    if let list = oldLists?[Slot(entity: k.entity, key: k.key, relationship: r)] {
                        let current = try records.targets(entity, k.key, r)
                        if list != current {
                            old.append(.toMany(list.map { records.id(destinations[r], $0) }))
                            new.append(.toMany(current.map { records.id(destinations[r], $0) }))
                            continue
                        }
                    }
                } else if before.toOne[r] != now.toOne[r] {
                    old.append(.toOne(before.toOne[r].map { records.id(destinations[r], $0) }))
                    new.append(.toOne(now.toOne[r].map { records.id(destinations[r], $0) }))
                    continue
                }
                old.append(.toOne(nil))
                new.append(.toOne(nil))
            }
            recorder.updated(entity, k.key, old: (before.attributes, old), new: (now.attributes, new))
        }
        for k in deleted where !isInserted(k.entity, k.key) {
            if let before = cache[k]?.original { recorder.deleted(entities[k.entity], k.key, attributes: before.attributes) }
        }
        guard !recorder.isEmpty else { return nil }
        let history = LMDBHistory(txn: txn, meta: layout.meta, file: file)
        let number = try nextHistoryNumber(history, last: last)
        try history.append(number, recorder, author: request.author)
        return number
    }

    /// The number the save's transaction takes: after `last`, or when the store does not know it,
    /// after the newest in the environment (then the format is raised, the first time only).
    private func nextHistoryNumber(_ history: LMDBHistory, last: Int64?) throws -> Int64 {
        if let last { return last + 1 }
        try history.raiseFormat()
        return try history.newest + 1
    }

    /// The commonest save, recorded without a recorder: the request updated one record, the save
    /// changed nothing else and no relationship of it (`HistoryRecorder.withEncodedUpdate`, about
    /// 2,000 instructions less than building and destroying its change). Returns the number
    /// written, 0 when no attribute changed (nothing recorded), or `nil` when the save is not that
    /// one (the caller records it the general way).
    private func recordOneUpdate<S: DataStoreSnapshot>(_ request: SaveRequest<S>, _ k: Key, file: String, last: Int64?) throws -> Int64? {
        guard request.updated.count == 1, request.deleted.isEmpty, oldLists?.isEmpty ?? true else { return nil }
        let entity = entities[k.entity], id = request.updated[0].persistentIdentifier
        guard id.primaryKey == k.key, !id.isTemporary, id.entityName == entity.name, id.storeIdentifier == storeIdentifier,
            let now = try load(k.entity, k.key)
        else { return nil }
        let before = cache[k]?.original ?? now
        guard before.toOne == now.toOne else { return nil }
        guard HistoryRecorder.changesAttributes(entity, old: before.attributes, new: now.attributes) else { return 0 }
        let history = LMDBHistory(txn: txn, meta: layout.meta, file: file)
        let number = try nextHistoryNumber(history, last: last)
        try history.put(number) { write in
            HistoryRecorder.withEncodedUpdate(
                storeIdentifier: storeIdentifier, number, author: request.author, entity, k.key, old: before.attributes, new: now.attributes, write)
        }
        return number
    }
}
