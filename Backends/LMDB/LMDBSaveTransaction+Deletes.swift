import CLMDB
import Foundation
import Strata

/// Deletes with their rules, and the validation after every change, inside a save.
extension LMDBSaveTransaction {
    /// Deletes the requested records and their cascades after the inserts and updates, applying each
    /// relationship's delete rule against everything stored.
    func applyDeletes<S: DataStoreSnapshot>(_ requested: [S]) throws {
        var queue: [Key] = []
        for snapshot in requested {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: layout.schema)
            let key = try SaveValidation.existingKey(id, of: entity, verb: "delete", storeIdentifier: storeIdentifier) { k in
                try !isInserted(entity.index, k) && exists(entity.index, k)
            }
            if deletedSet.insert(Key(entity: entity.index, key: key)).inserted { queue.append(Key(entity: entity.index, key: key)) }
        }
        guard !queue.isEmpty else { return }
        var next = 0
        while next < queue.count {
            let victim = queue[next]
            next += 1
            let entity = entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                let destination = entity.destinationIndices[r]
                for target in try targets(victim.entity, victim.key, r) where try exists(destination, target) {
                    if deletedSet.insert(Key(entity: destination, key: target)).inserted { queue.append(Key(entity: destination, key: target)) }
                }
            }
        }
        // Rules apply in (entity, key) order, so a denied delete names the same record everywhere.
        queue.sort { ($0.entity, $0.key) < ($1.entity, $1.key) }
        for victim in queue {
            let entity = entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let destination = entity.destinationIndices[r]
                let inverse = entity.inverseIndices[r]
                var survivors = try targets(victim.entity, victim.key, r).filter {
                    try !deletedSet.contains(Key(entity: destination, key: $0)) && exists(destination, $0)
                }
                guard !survivors.isEmpty else { continue }
                if relationship.deleteRule == .deny { survivors.sort() }
                switch relationship.deleteRule {
                case .deny:
                    throw SaveValidation.deleteDenied(entity, relationship: r, victim: client(victim.entity, victim.key), survivors: survivors.map { client(destination, $0) })
                case .nullify, .cascade:
                    for target in survivors { try detach(destination, target, inverse, from: victim.key) }
                case .noAction:
                    // To-one references dangle by request; lists never show a deleted record.
                    if entities[destination].relationshipIsToMany[inverse] {
                        for target in survivors { try detach(destination, target, inverse, from: victim.key) }
                    }
                }
            }
        }
        for victim in queue {
            let entity = entities[victim.entity]
            for r in entity.relationships.indices where entity.relationshipIsToMany[r] {
                let rc = withKey(victim.key) { k in mdb_del(txn, layout.toMany[victim.entity][r], &k, nil) }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "delete a list") }
            }
            if isInserted(victim.entity, victim.key) {
                inserted[victim.entity][Int(victim.key - firstInserted[victim.entity])] = nil
            } else {
                _ = try load(victim.entity, victim.key)
                let k = Key(entity: victim.entity, key: victim.key)
                cache[k]!.current = nil
                cache[k]!.dirty = true
            }
        }
        deleted = queue
    }

    /// Required to-ones and to-many bounds of every surviving record the save wrote or changed.
    func validate() throws {
        let checked = entities.map { e in e.relationships.indices.filter { SaveValidation.needsCountCheck(e, $0) } }
        func check(_ e: Int, _ key: Int64, _ record: LMDBRecord) throws {
            let entity = entities[e]
            for r in checked[e] {
                let count = entity.relationshipIsToMany[r] ? try records.count(entity, key, r) : (record.toOne[r] == nil ? 0 : 1)
                try SaveValidation.checkCount(entity, r, count: count, identifier: client(e, key))
            }
        }
        // Every changed record, in (entity, key) order: stored records, then inserts (higher keys),
        // so the fault reported is the same on every backend.
        var keys = Set<Key>()
        for (k, cached) in cache where cached.dirty && !checked[k.entity].isEmpty && cached.current != nil { keys.insert(k) }
        for k in touched where !checked[k.entity].isEmpty && !isInserted(k.entity, k.key) { keys.insert(k) }
        for e in entities.indices where !checked[e].isEmpty {
            for (i, record) in inserted[e].enumerated() where record != nil { keys.insert(Key(entity: e, key: firstInserted[e] + Int64(i))) }
        }
        for k in keys.sorted(by: { ($0.entity, $0.key) < ($1.entity, $1.key) }) {
            if let record = try load(k.entity, k.key) { try check(k.entity, k.key, record) }
        }
    }

    /// The records the save changed beyond what the request sent, for the result.
    func changedRecords() throws -> [DefaultSnapshot] {
        let reported = touched.union(refreshed).subtracting(deletedSet)
        guard !reported.isEmpty else { return [] }
        // An insert's write is found by its key; updates (usually few) by a dictionary.
        var updates: [Key: Int] = [:]
        for (n, w) in writes.enumerated() where !w.isInsert { updates[Key(entity: w.entity.index, key: w.key)] = n }
        func write(_ k: Key) -> Write? {
            if isInserted(k.entity, k.key) { return writes[insertWrites[k.entity][Int(k.key - firstInserted[k.entity])]] }
            return updates[k].map { writes[$0] }
        }
        var result: [DefaultSnapshot] = []
        for k in reported {
            let entity = entities[k.entity]
            guard let record = try load(k.entity, k.key) else { continue }
            let snapshot = try records.snapshot(entity, k.key, record)
            if !refreshed.contains(k), let w = write(k) {
                let same = entity.relationships.indices.allSatisfy { r in
                    let now = snapshot.relationships[r].targets.map(\.primaryKey)
                    let sent = w.sent[r].keys
                    guard entity.relationshipIsToMany[r] && !entity.relationships[r].isOrdered else { return now == sent }
                    // A stored list has no duplicates: a count apart means different, without hashing `now`.
                    let sentSet = Set(sent)
                    return now.count == sentSet.count && Set(now) == sentSet
                }
                if same { continue }
            }
            result.append(snapshot)
        }
        return result
    }

    /// The permanent identifiers of every deleted record, cascades included.
    var deletedIdentifiers: Set<PersistentIdentifier> {
        Set(deleted.map { records.id(entities[$0.entity].name, $0.key) })
    }
}
