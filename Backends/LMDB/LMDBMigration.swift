import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// Applies a `SchemaMigration` to an LMDB environment in place, in one write transaction: a crash
/// or an error at any point leaves the store at the old schema (LMDB's copy-on-write commit), and
/// keys, key counters and the store identifier are kept, so a `PersistentIdentifier` saved before
/// the migration names the same record afterwards.
///
/// The transaction reads every record of the source schema into the core's engine and rewrites
/// them there (`StoreState.migrated(by:)` maps the values and checks new unique constraints and
/// count bounds before anything is written; a migration plan's staged path runs its custom
/// stages' code there too, `StateMigratable`), then empties the databases the destination keeps, drops the ones
/// it does not, creates the new ones and writes the records, lists, unique and index entries, key
/// counters and schema record. Cost: the store is read and written once, and held in memory once.
///
/// Because the environment itself stays (no file is swapped), every open of this process sees the
/// new schema the moment the transaction commits.
enum LMDBMigration {
    /// Migrates the environment in `configuration.folder` from `source` to `destination`: its
    /// records become `rewrite(records)` (`StoreState.migrated(by:)`, or a whole staged path).
    ///
    /// - Throws: `ioFailure` when there is no store to migrate; `schemaMismatch` when the store is
    ///   not at `source`; `rewrite`'s errors (`uniqueConstraintViolation` naming two records that
    ///   collide under a new constraint…); `storeLocked` when this process has the store open
    ///   read-only — the store unchanged.
    static func run(_ configuration: LMDBStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        let path = configuration.folder.path
        do {
            guard try LMDBFormat.preflight(configuration.folder, readOnly: true) else {
                throw StrataError(.ioFailure, "There is no LMDB store in this folder to migrate.", file: path)
            }
            let environment = try LMDBEnvironment.shared(
                path: path, mapSize: configuration.initialMapSize, maximumMapSize: configuration.maximumMapSize,
                maxDatabases: LMDBLayout.environmentSlots(source, destination),
                flags: LMDBStoreConfiguration.environmentFlags(configuration.durability))
            try environment.catalog.withLock {
                try environment.write { txn in try migrate(txn, from: source, to: destination, rewrite: rewrite, file: path) }
            }
        } catch let error as LMDBError {
            throw error.strataError(path: path)
        }
    }

    /// The whole migration inside the write transaction `txn`.
    private static func migrate(_ txn: OpaquePointer, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState, file: String) throws {
        var metaDBI: MDB_dbi = 0
        let rc = mdb_dbi_open(txn, LMDBLayout.metaName, 0, &metaDBI)
        if rc == MDB_NOTFOUND { throw StrataError(.ioFailure, "The LMDB environment holds no store to migrate.", file: file) }
        try lmdbCheck(rc, "open the metadata database")
        let (identifier, recorded) = try LMDBFormat.read(txn, metaDBI, file: file)
        guard recorded.fingerprint == source.fingerprint else {
            throw recorded.mismatch(opening: source, file: file, reason: "The migration starts at another schema than the store holds")
        }
        let old = try LMDBLayout(existing: source, txn: txn, file: file)
        // Read and map everything first: every refusal comes before the first write.
        let state = try load(LMDBRecords(txn: txn, context: LMDBContext(layout: old, storeIdentifier: identifier, file: file)))
        let next = try rewrite(state)
        try next.requireSchema(destination)

        let kept = Set(LMDBLayout.databaseNames(destination))
        for (name, dbi) in old.databases where name != LMDBLayout.metaName {
            try lmdbCheck(mdb_drop(txn, dbi, kept.contains(name) ? 0 : 1), "drop database '\(name)'")
        }
        let new = try LMDBLayout(schema: destination, txn: txn, create: true)
        try write(next, LMDBRecords(txn: txn, context: LMDBContext(layout: new, storeIdentifier: identifier, file: file)))

        for entity in source.entities {
            let rc = LMDBLayout.counterName(entity).withCString { name in
                var key = MDB_val(mv_size: strlen(name), mv_data: UnsafeMutableRawPointer(mutating: name))
                return mdb_del(txn, metaDBI, &key, nil)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "remove the key counter of '\(entity.name)'") }
        }
        let meta = LMDBMeta(txn: txn, layout: new, file: file)
        for entity in destination.entities where next.nextPrimaryKey(entity) > 1 {
            try meta.setNextKey(entity, next.nextPrimaryKey(entity))
        }
        try LMDBMeta.put(txn, metaDBI, "fingerprint", Array(destination.fingerprint.utf8))
        try LMDBFormat.writeRecord(txn, metaDBI, schema: destination)
    }

    /// Every record of the layout's schema, with the stored key counters.
    private static func load(_ records: LMDBRecords) throws -> StoreState {
        let schema = records.layout.schema
        var state = StoreState(schema: schema, storeIdentifier: records.storeIdentifier)
        let meta = LMDBMeta(txn: records.txn, layout: records.layout, file: records.file)
        for entity in schema.entities {
            try records.withCursor(records.layout.records[entity.index]) { cursor in
                var key = MDB_val(), data = MDB_val()
                var rc = mdb_cursor_get(cursor, &key, &data, MDB_FIRST)
                while rc == 0 {
                    guard key.mv_size == 8 else {
                        throw StrataError(.corruptStore, "'\(entity.name)' holds a key of \(key.mv_size) bytes; restore the environment from a backup.", entity: entity.name, file: records.file)
                    }
                    let k = LMDBKeyCodec.readBigEndian(key.mv_data)
                    let record = try LMDBRecordCodec.decode(data.bytes, records.context.shapes[entity.index], key: k, file: records.file)
                    let links: [Link] = try entity.relationships.indices.map { r in
                        entity.relationshipIsToMany[r] ? .many(try records.targets(entity, k, r)) : .one(record.toOne[r])
                    }
                    try state.load(entity, key: k, record: StoredRecord(attributes: record.attributes, links: links))
                    rc = mdb_cursor_get(cursor, &key, &data, MDB_NEXT)
                }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "read \(entity.name)") }
            }
            state.setNextPrimaryKey(entity, atLeast: try meta.nextKey(entity))
        }
        try state.finishLoading()
        return state
    }

    /// Writes every record of `state` into the (empty) databases of the records' layout.
    private static func write(_ state: StoreState, _ records: LMDBRecords) throws {
        let txn = records.txn, layout = records.layout
        for entity in layout.schema.entities {
            let e = entity.index
            try state.forEachRecord(entity) { key, stored in
                let record = LMDBRecord(attributes: stored.attributes, toOne: stored.links.map { if case .one(let k) = $0 { k } else { nil } })
                let shape = records.context.shapes[e]
                var data = MDB_val(mv_size: LMDBRecordCodec.encodedSize(record, shape), mv_data: nil)
                try lmdbCheck(withKey(key) { mdb_put(txn, layout.records[e], &$0, &data, UInt32(MDB_RESERVE)) }, "write \(entity.name) \(key)")
                LMDBRecordCodec.encode(record, shape, key: key, into: UnsafeMutableRawBufferPointer(start: data.mv_data, count: data.mv_size))
                for r in entity.relationships.indices where entity.relationshipIsToMany[r] {
                    for (position, target) in stored.links[r].keys.enumerated() {
                        try putListEntry(txn, layout.toMany[e][r], key, target, position: entity.relationships[r].isOrdered ? Int64(position) : nil)
                    }
                }
                var value: [UInt8] = []
                for (c, refs) in entity.uniqueConstraints.enumerated() where LMDBKeyCodec.valueKey(refs, record, into: &value) {
                    try putEntry(txn, layout.uniques[e][c], value, key)
                }
                for (i, refs) in entity.indexes.enumerated() where LMDBKeyCodec.valueKey(refs, record, into: &value) {
                    try putEntry(txn, layout.indexes[e][i], value, key)
                }
                return true
            }
        }
    }

    /// Files `key` under a value key in a duplicate-sorted database.
    private static func putEntry(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ value: [UInt8], _ key: Int64) throws {
        let rc = value.withUnsafeBytes { bytes in withValue(bytes) { k in withKey(key) { v in mdb_put(txn, dbi, &k, &v, UInt32(MDB_NODUPDATA)) } } }
        if rc != MDB_KEYEXIST { try lmdbCheck(rc, "write an index entry") }
    }

    /// Adds `target` to the list of `owner`: its key, or its position then its key (ordered).
    private static func putListEntry(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ owner: Int64, _ target: Int64, position: Int64?) throws {
        var entry = (LMDBKeyCodec.bigEndian(position ?? 0), LMDBKeyCodec.bigEndian(target))
        let rc = withUnsafeMutableBytes(of: &entry) { raw in
            var v = position == nil ? MDB_val(mv_size: 8, mv_data: raw.baseAddress! + 8) : MDB_val(mv_size: 16, mv_data: raw.baseAddress)
            return withKey(owner) { k in mdb_put(txn, dbi, &k, &v, UInt32(MDB_NODUPDATA)) }
        }
        if rc != MDB_KEYEXIST { try lmdbCheck(rc, "write a list") }
    }
}
