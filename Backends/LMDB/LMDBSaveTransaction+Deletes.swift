import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// Deletes and the validation after every change, inside a save: the rules are `SaveRules`';
/// LMDB answers its questions (`LMDBSaveTransaction+Rules.swift`) and removes the records.
extension LMDBSaveTransaction {
    /// Deletes the requested records and their cascades after the inserts and updates, applying each
    /// relationship's delete rule against everything stored.
    func applyDeletes<S: DataStoreSnapshot>(_ snapshots: [S]) throws {
        var requested: [SaveRuleRecord] = []
        for snapshot in snapshots {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: entities)
            let key = try SaveValidation.existingKey(id, of: entity, verb: "delete", storeIdentifier: storeIdentifier) { k in
                try !isInserted(entity.index, k) && exists(entity.index, k)
            }
            requested.append(SaveRuleRecord(entity: entity.index, key: key))
        }
        guard !requested.isEmpty else { return }
        var host = self
        let queue = try SaveRules.applyDeleteRules(requested, entities, host: &host).map { Key(entity: $0.entity, key: $0.key) }
        deletedSet.formUnion(queue)
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

    /// Required to-ones and to-many bounds of every surviving record the save wrote or changed
    /// (`SaveRules.checkRelationships` decides the order and the fault).
    func validate() throws {
        let checked = entities.map { e in e.relationships.indices.contains { SaveRules.needsCountCheck(e, $0) } }
        var candidates: [SaveRuleRecord] = []
        for (k, cached) in cache where cached.dirty && checked[k.entity] && cached.current != nil { candidates.append(SaveRuleRecord(entity: k.entity, key: k.key)) }
        for k in touched where checked[k.entity] && !isInserted(k.entity, k.key) { candidates.append(SaveRuleRecord(entity: k.entity, key: k.key)) }
        for e in entities.indices where checked[e] {
            for (i, record) in inserted[e].enumerated() where record != nil { candidates.append(SaveRuleRecord(entity: e, key: firstInserted[e] + Int64(i))) }
        }
        var host = self
        try SaveRules.checkRelationships(candidates, entities, host: &host)
    }

    /// The records the save changed beyond what the request sent, for the result.
    func changedRecords() throws -> [LMDBSnapshot] {
        let reported = touched.union(refreshed).subtracting(deletedSet)
        guard !reported.isEmpty else { return [] }
        // An insert's write is found by its key; updates (usually few) by a dictionary.
        var updates: [Key: Int] = [:]
        for (n, w) in writes.enumerated() where !w.isInsert { updates[Key(entity: w.entity.index, key: w.key)] = n }
        func write(_ k: Key) -> Write? {
            if isInserted(k.entity, k.key) { return writes[insertWrites[k.entity][Int(k.key - firstInserted[k.entity])]] }
            return updates[k].map { writes[$0] }
        }
        var result: [LMDBSnapshot] = []
        for k in reported {
            let entity = entities[k.entity]
            guard let record = try load(k.entity, k.key) else { continue }
            let snapshot = try records.snapshot(entity, k.key, record)
            if !refreshed.contains(k), let w = write(k) {
                let same = entity.relationships.indices.allSatisfy { r in
                    let now = snapshot.relationshipValues[r].targets.map(\.primaryKey)
                    let sent = sentLink(w, r).keys
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
