import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// Relationship maintenance inside a save: both sides of every edge, as the shared engine keeps them.
extension LMDBSaveTransaction {
    /// Applies what a written record changed in relationship `r`, compared with the stored record
    /// (an insert starts empty), as edge additions and removals that keep both sides in agreement.
    func applyLink(_ w: Write, _ r: Int) throws {
        let e = w.entity.index
        let destination = w.entity.destinationIndices[r]
        let inverse = w.entity.inverseIndices[r]
        if w.isInsert {
            // An insert was written with its own side; only the targets' sides change. (A switch,
            // not `Link.keys`, which allocates a one-element array per to-one.)
            switch sentLink(w, r) {
            case .one(nil): break
            case .one(let target?):
                try requireExists(destination, target, w, r)
                // An earlier write of the save may have moved the insert away; this later one wins.
                try attach(e, w.key, r, to: target, source: destination, sourceRelationship: inverse)
                try attach(destination, target, inverse, to: w.key, source: e, sourceRelationship: r)
            case .many(let targets):
                for target in targets {
                    try requireExists(destination, target, w, r)
                    try attach(destination, target, inverse, to: w.key, source: e, sourceRelationship: r)
                }
            }
            return
        }
        let stored = w.stored[r]
        let sent = sentLink(w, r)
        guard stored != sent else { return }
        switch (stored, sent) {
        case (.one(let old), .one(let new)):
            if let old { try unlink(e, w.key, r, destination, old, inverse) }
            if let new {
                try requireExists(destination, new, w, r)
                try attach(e, w.key, r, to: new, source: destination, sourceRelationship: inverse)
                try attach(destination, new, inverse, to: w.key, source: e, sourceRelationship: r)
            }
        case (.many(let old), .many(let new)):
            let oldSet = Set(old), newSet = Set(new)
            for target in old where !newSet.contains(target) { try unlink(e, w.key, r, destination, target, inverse) }
            for target in new where !oldSet.contains(target) {
                try requireExists(destination, target, w, r)
                try attach(e, w.key, r, to: target, source: destination, sourceRelationship: inverse)
                try attach(destination, target, inverse, to: w.key, source: e, sourceRelationship: r)
            }
            if w.entity.relationships[r].isOrdered { try reorder(e, w.key, r, as: new) }
        default:
            break
        }
    }

    /// `SaveRules.requireExists`, answered from the record cache and the database.
    func requireExists(_ entity: Int, _ key: Int64, _ w: Write, _ r: Int) throws {
        try SaveRules.requireExists(entity, key, referencedBy: w.entity, w.key, relationship: r, holds: { try exists(entity, key) }, client: client)
    }

    /// Removes the edge between `key` (relationship `r`) and `target` (relationship `inverse`) on both sides.
    func unlink(_ entity: Int, _ key: Int64, _ r: Int, _ destination: Int, _ target: Int64, _ inverse: Int) throws {
        try detach(entity, key, r, from: target)
        try detach(destination, target, inverse, from: key)
    }

    func markTouched(_ entity: Int, _ key: Int64) {
        let k = Key(entity: entity, key: key)
        guard k != lastTouched else { return }
        lastTouched = k
        touched.insert(k)
    }

    /// The targets of relationship `r` of a record as they stand in this save.
    func targets(_ entity: Int, _ key: Int64, _ r: Int) throws -> [Int64] {
        if entities[entity].relationshipIsToMany[r] { return try records.targets(entities[entity], key, r) }
        return try load(entity, key)?.toOne[r].map { [$0] } ?? []
    }

    /// Removes `source` from relationship `r` of record `key` (one side only).
    func detach(_ entity: Int, _ key: Int64, _ r: Int, from source: Int64) throws {
        guard entities[entity].relationshipIsToMany[r] else {
            guard let record = try load(entity, key), record.toOne[r] == source else { return }
            try modify(entity, key) { $0.toOne[r] = nil }
            markTouched(entity, key)
            return
        }
        try noteListChange(entity, key, r)
        let dbi = layout.toMany[entity][r]
        if entities[entity].relationships[r].isOrdered {
            let removed: Bool = try records.withCursor(dbi) { cursor in
                try withKey(key) { k in
                    var data = MDB_val()
                    var rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_KEY)
                    while rc == 0 {
                        if data.mv_size == 16, LMDBKeyCodec.readBigEndian(data.mv_data! + 8) == source {
                            try lmdbCheck(mdb_cursor_del(cursor, 0), "remove from a list")
                            return true
                        }
                        rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT_DUP)
                    }
                    if rc != MDB_NOTFOUND { try lmdbCheck(rc, "read a list") }
                    return false
                }
            }
            guard removed else { return }
            membership[Slot(entity: entity, key: key, relationship: r)]?.remove(source)
        } else {
            let rc = withKey(key) { k in withKey(source) { s in mdb_del(txn, dbi, &k, &s) } }
            if rc == MDB_NOTFOUND { return }
            try lmdbCheck(rc, "remove from a list")
        }
        markTouched(entity, key)
    }

    /// Adds `source` to relationship `r` of record `key` (one side only); if `r` is a to-one that held
    /// another record, that record loses `key` from its side (`sourceRelationship` of `sourceEntity`).
    func attach(_ entity: Int, _ key: Int64, _ r: Int, to source: Int64, source sourceEntity: Int, sourceRelationship: Int) throws {
        guard entities[entity].relationshipIsToMany[r] else {
            guard let record = try load(entity, key), record.toOne[r] != source else { return }
            if let previous = record.toOne[r] { try detach(sourceEntity, previous, sourceRelationship, from: key) }
            try modify(entity, key) { $0.toOne[r] = source }
            markTouched(entity, key)
            return
        }
        if try append(entity, key, r, source) { markTouched(entity, key) }
    }

    /// Appends `target` to to-many `r` of `key` unless it is there; returns whether it was added.
    func append(_ entity: Int, _ key: Int64, _ r: Int, _ target: Int64) throws -> Bool {
        try noteListChange(entity, key, r)
        let dbi = layout.toMany[entity][r]
        guard entities[entity].relationships[r].isOrdered else {
            let rc = withKey(key) { k in withKey(target) { t in mdb_put(txn, dbi, &k, &t, UInt32(MDB_NODUPDATA)) } }
            if rc == MDB_KEYEXIST { return false }
            try lmdbCheck(rc, "add to a list")
            return true
        }
        let slot = Slot(entity: entity, key: key, relationship: r)
        if membership[slot] == nil { membership[slot] = Set(try records.targets(entities[entity], key, r)) }
        guard membership[slot]!.insert(target).inserted else { return false }
        let position: Int64 = try records.withCursor(dbi) { cursor in
            try withKey(key) { k in
                var data = MDB_val()
                var rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_KEY)
                if rc == MDB_NOTFOUND { return 0 }
                try lmdbCheck(rc, "read a list")
                rc = mdb_cursor_get(cursor, &k, &data, MDB_LAST_DUP)
                try lmdbCheck(rc, "read a list")
                return LMDBKeyCodec.readBigEndian(data.mv_data) + 1
            }
        }
        try putOrdered(dbi, key, position, target)
        return true
    }

    private func putOrdered(_ dbi: MDB_dbi, _ key: Int64, _ position: Int64, _ target: Int64) throws {
        var value = (LMDBKeyCodec.bigEndian(position), LMDBKeyCodec.bigEndian(target))
        try withUnsafeMutableBytes(of: &value) { raw in
            var v = MDB_val(mv_size: 16, mv_data: raw.baseAddress)
            try withKey(key) { k in try lmdbCheck(mdb_put(txn, dbi, &k, &v, 0), "add to a list") }
        }
    }

    /// Writes a whole list (an insert's own side, or a reorder), replacing what was there.
    func writeList(_ entity: Int, _ key: Int64, _ r: Int, _ targets: [Int64]) throws {
        try noteListChange(entity, key, r)
        let dbi = layout.toMany[entity][r]
        let rc = withKey(key) { k in mdb_del(txn, dbi, &k, nil) }
        if rc != MDB_NOTFOUND { try lmdbCheck(rc, "replace a list") }
        if entities[entity].relationships[r].isOrdered {
            for (position, target) in targets.enumerated() { try putOrdered(dbi, key, Int64(position), target) }
            membership[Slot(entity: entity, key: key, relationship: r)] = nil
        } else {
            for target in targets {
                let rc = withKey(key) { k in withKey(target) { t in mdb_put(txn, dbi, &k, &t, UInt32(MDB_NODUPDATA)) } }
                if rc != MDB_KEYEXIST { try lmdbCheck(rc, "write a list") }
            }
        }
    }

    /// Puts an ordered list in the written order; members other writes of this save added follow.
    func reorder(_ entity: Int, _ key: Int64, _ r: Int, as written: [Int64]) throws {
        let current = try records.targets(entities[entity], key, r)
        guard current != written else { return }
        let present = Set(current), listed = Set(written)
        let ordered = written.filter { present.contains($0) } + current.filter { !listed.contains($0) }
        guard ordered != current else { return }
        try writeList(entity, key, r, ordered)
        markTouched(entity, key)
    }
}
