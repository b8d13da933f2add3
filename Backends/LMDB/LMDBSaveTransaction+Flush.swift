import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// Writing a save's records, unique-constraint and index entries and key counters.
extension LMDBSaveTransaction {
    /// Writes everything the save changed; a unique collision throws (and the transaction is aborted).
    ///
    /// Unique entries of changed existing records are removed first and every new entry added after,
    /// so two records may swap values and a value freed by a delete is free in the same save.
    func flush() throws {
        var changed: [[(key: Int64, cached: Cached)]] = entities.map { _ in [] }
        for (k, c) in cache where c.dirty { changed[k.entity].append((k.key, c)) }
        let meta = LMDBMeta(txn: txn, layout: layout, file: records.file)
        for entity in entities {
            let e = entity.index
            changed[e].sort { $0.key < $1.key }
            try writeRecords(entity, changed[e])
            for c in entity.uniqueConstraints.indices { try writeUnique(entity, c, changed[e]) }
            for i in entity.indexes.indices { try writeIndex(entity, i, changed[e]) }
            if !inserted[e].isEmpty { try meta.setNextKey(entity, firstInserted[e] + Int64(inserted[e].count)) }
        }
    }

    private func writeRecords(_ entity: EntitySchema, _ changed: [(key: Int64, cached: Cached)]) throws {
        let dbi = layout.records[entity.index]
        // Looked up once: `records.context.shapes[…]` per record cost three retains and releases.
        let shape = records.context.shapes[entity.index]
        for (key, c) in changed {
            if let record = c.current {
                try put(dbi, key, record, shape, flags: 0)
            } else if c.original != nil {
                let rc = withKey(key) { mdb_del(txn, dbi, &$0, nil) }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "delete \(entity.name) \(key)") }
            }
        }
        let first = firstInserted[entity.index]
        for (i, record) in inserted[entity.index].enumerated() {
            guard let record else { continue }
            // New keys are above every stored key (the counter never goes back), so they append.
            try put(dbi, first + Int64(i), record, shape, flags: MDB_APPEND)
        }
    }

    /// Writes a record straight into its page: `MDB_RESERVE` hands out the bytes, the codec fills them.
    private func put(_ dbi: MDB_dbi, _ key: Int64, _ record: LMDBRecord, _ shape: LMDBRecordShape, flags: Int32) throws {
        let entity = shape.entity
        var data = MDB_val(mv_size: LMDBRecordCodec.encodedSize(record, shape), mv_data: nil)
        let rc = withKey(key) { k in mdb_put(txn, dbi, &k, &data, UInt32(flags | MDB_RESERVE)) }
        if rc == MDB_KEYEXIST {
            throw StrataError(.corruptStore, "The key counter of '\(entity.name)' is behind its stored keys (\(key) exists); restore the environment from a backup.", entity: entity.name, file: records.file)
        }
        try lmdbCheck(rc, "write \(entity.name) \(key)")
        LMDBRecordCodec.encode(record, shape, key: key, into: UnsafeMutableRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// The values a unique constraint or index compares for a record.
    func parts(_ refs: [PropertyReference], _ record: LMDBRecord) -> [Value] {
        refs.map { ref in
            switch ref {
            case .attribute(let i): record.attributes[i]
            case .relationship(let r): record.toOne[r].map { Value.int($0) } ?? .null
            }
        }
    }

    /// The entries of changed existing records whose key moved: old ones are removed here, new ones returned.
    private func moves(_ refs: [PropertyReference], _ dbi: MDB_dbi, _ changed: [(key: Int64, cached: Cached)]) throws -> [(key: Int64, value: [UInt8])] {
        var old: [UInt8] = [], new: [UInt8] = []
        var result: [(key: Int64, value: [UInt8])] = []
        for (key, cached) in changed {
            let hasOld = cached.original.map { LMDBKeyCodec.valueKey(refs, $0, into: &old) } ?? false
            let hasNew = cached.current.map { LMDBKeyCodec.valueKey(refs, $0, into: &new) } ?? false
            if hasOld == hasNew && (!hasOld || old == new) { continue }
            if hasOld { try removeEntry(dbi, old, key) }
            if hasNew { result.append((key, new)) }
        }
        return result
    }

    private func writeUnique(_ entity: EntitySchema, _ c: Int, _ changed: [(key: Int64, cached: Cached)]) throws {
        let refs = entity.uniqueConstraints[c]
        let dbi = layout.uniques[entity.index][c]
        let moved = try moves(refs, dbi, changed)
        let first = firstInserted[entity.index]
        try withKeyBuffer { scratch in
            for (i, record) in inserted[entity.index].enumerated() {
                guard let record, let length = LMDBKeyCodec.valueKey(refs, record, into: scratch) else { continue }
                try addUnique(entity, c, dbi, UnsafeRawBufferPointer(rebasing: scratch[..<length]), first + Int64(i), changed)
            }
        }
        for (key, value) in moved { try value.withUnsafeBytes { try addUnique(entity, c, dbi, $0, key, changed) } }
    }

    /// Runs `body` with room for one value key (`LMDBKeyCodec.valueKey(_:_:into:)` writes the
    /// inserted records' keys there, one after the other).
    private func withKeyBuffer(_ body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        try withUnsafeTemporaryAllocation(byteCount: LMDBKeyCodec.maximumKeyLength, alignment: 8, body)
    }

    /// Files `key` under `value` in unique constraint `c`, or throws the violation the contract names.
    private func addUnique(_ entity: EntitySchema, _ c: Int, _ dbi: MDB_dbi, _ value: UnsafeRawBufferPointer, _ key: Int64, _ changed: [(key: Int64, cached: Cached)]) throws {
        let refs = entity.uniqueConstraints[c]
        if LMDBKeyCodec.isTruncated(value) {
            // A cut key may be shared by different values: compare the holders' full values.
            let mine = parts(refs, try load(entity.index, key)!).map(\.uniqueKey)
            for holder in try holders(dbi, Array(value)) where holder != key {
                if let record = try load(entity.index, holder), parts(refs, record).map(\.uniqueKey) == mine {
                    throw try uniqueFault(entity, c, changed)
                }
            }
            try putEntry(dbi, value, key, flags: MDB_NODUPDATA)
            return
        }
        let rc = withValue(value) { k in withKey(key) { v in mdb_put(txn, dbi, &k, &v, UInt32(MDB_NOOVERWRITE)) } }
        if rc == MDB_KEYEXIST { throw try uniqueFault(entity, c, changed) }
        try lmdbCheck(rc, "write unique constraint of \(entity.name)")
    }

    /// The violation the contract names (store contract, "Which fault a save reports"): among the
    /// groups of records sharing constraint `c`'s values after the save, the one whose offender has
    /// the lowest key; the record collided with is the member that held the values before the save,
    /// else the lowest key. Only called once a collision is known.
    private func uniqueFault(_ entity: EntitySchema, _ c: Int, _ changed: [(key: Int64, cached: Cached)]) throws -> StrataError {
        let refs = entity.uniqueConstraints[c]
        let dbi = layout.uniques[entity.index][c]
        let first = firstInserted[entity.index]
        var finals: [(key: Int64, parts: [Value], original: [Value]?)] = []
        for (i, record) in inserted[entity.index].enumerated() {
            if let record, valueKey(refs, record) != nil { finals.append((first + Int64(i), parts(refs, record).map(\.uniqueKey), nil)) }
        }
        for (key, cached) in changed {
            guard let current = cached.current, valueKey(refs, current) != nil else { continue }
            finals.append((key, parts(refs, current).map(\.uniqueKey), cached.original.map { parts(refs, $0).map(\.uniqueKey) }))
        }
        let changedKeys = Set(finals.map(\.key))
        var groups: [[Int64]] = []
        for candidate in finals {
            // Members: other changed records with the same values, and unchanged records holding them.
            var members = finals.filter { $0.parts == candidate.parts }.map(\.key)
            for holder in try holders(dbi, valueKey(refs, try load(entity.index, candidate.key))!) where !changedKeys.contains(holder) {
                if let record = try load(entity.index, holder), parts(refs, record).map(\.uniqueKey) == candidate.parts { members.append(holder) }
            }
            groups.append(members)
        }
        return SaveRules.uniqueViolation(entity, constraint: c, groups: groups, heldBefore: { key, g in
            !changedKeys.contains(key) || finals.first { $0.key == key }?.original == finals[g].parts
        }, client: { client(entity.index, $0) })
    }

    /// The key of a record's values for `refs`, or `nil` (for the failure path, which may allocate).
    private func valueKey(_ refs: [PropertyReference], _ record: LMDBRecord?) -> [UInt8]? {
        var key: [UInt8] = []
        guard let record, LMDBKeyCodec.valueKey(refs, record, into: &key) else { return nil }
        return key
    }

    private func writeIndex(_ entity: EntitySchema, _ i: Int, _ changed: [(key: Int64, cached: Cached)]) throws {
        let refs = entity.indexes[i]
        let dbi = layout.indexes[entity.index][i]
        for (key, value) in try moves(refs, dbi, changed) { try value.withUnsafeBytes { try putEntry(dbi, $0, key, flags: 0) } }
        let first = firstInserted[entity.index]
        try withKeyBuffer { scratch in
            for (n, record) in inserted[entity.index].enumerated() {
                guard let record, let length = LMDBKeyCodec.valueKey(refs, record, into: scratch) else { continue }
                try putEntry(dbi, UnsafeRawBufferPointer(rebasing: scratch[..<length]), first + Int64(n), flags: 0)
            }
        }
    }

    /// The keys filed under `value` in a duplicate-sorted database.
    private func holders(_ dbi: MDB_dbi, _ value: [UInt8]) throws -> [Int64] {
        var result: [Int64] = []
        try records.withCursor(dbi) { cursor in
            try value.withUnsafeBytes { bytes in
                try withValue(bytes) { k in
                    var data = MDB_val()
                    var rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_KEY)
                    while rc == 0 {
                        if data.mv_size == 8 { result.append(LMDBKeyCodec.readBigEndian(data.mv_data)) }
                        rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT_DUP)
                    }
                    if rc != MDB_NOTFOUND { try lmdbCheck(rc, "read an index") }
                }
            }
        }
        return result
    }

    private func putEntry(_ dbi: MDB_dbi, _ value: UnsafeRawBufferPointer, _ key: Int64, flags: Int32) throws {
        let rc = withValue(value) { k in withKey(key) { v in mdb_put(txn, dbi, &k, &v, UInt32(flags)) } }
        if rc != MDB_KEYEXIST { try lmdbCheck(rc, "write an index entry") }
    }

    private func removeEntry(_ dbi: MDB_dbi, _ value: [UInt8], _ key: Int64) throws {
        let rc = value.withUnsafeBytes { bytes in withValue(bytes) { k in withKey(key) { v in mdb_del(txn, dbi, &k, &v) } } }
        if rc != MDB_NOTFOUND { try lmdbCheck(rc, "remove an index entry") }
    }
}
