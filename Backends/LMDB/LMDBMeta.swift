import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// The metadata database `strata.meta`: format version, schema fingerprint and declaration, store
/// identifier, and one key counter per entity (`next.<Entity>`, 8 bytes big-endian), so keys are
/// never reused, also after a delete and a reopen.
struct LMDBMeta {
    /// The newest layout version this code reads: 2, an environment this version has written
    /// history into. Version 2 differs from 1 only there: history numbers come from the last
    /// `history.` entry, and `history_last` (which version 1 writers keep on every save) is no
    /// longer written, so a version 1 writer would number from a stale counter and overwrite
    /// entries. Raising the version the first time this version records makes an older Strata
    /// refuse the environment (`newerFormat`) instead (docs/formats/lmdb.md, "Format versions").
    /// 3: history entries this version may have written in the compact form (docs/history.md,
    /// "Stored form"), which a version 2 reader cannot decode; raised the same way.
    static let formatVersion: UInt32 = 3
    /// The version a new environment gets, and keeps while this version records no history in it
    /// (an older Strata reads and writes such an environment as it always did).
    static let createdFormatVersion: UInt32 = 1
    /// The version an environment is raised to the first time this version writes history into it.
    static let historyFormatVersion: UInt32 = 3

    let txn: OpaquePointer
    let layout: LMDBLayout
    let file: String

    /// The raw value of `name`, or `nil`.
    static func get(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ name: String) throws -> [UInt8]? {
        var data = MDB_val()
        var key = Array(name.utf8)
        let rc = key.withUnsafeMutableBytes { raw in
            var k = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
            return mdb_get(txn, dbi, &k, &data)
        }
        if rc == MDB_NOTFOUND { return nil }
        try lmdbCheck(rc, "read metadata '\(name)'")
        return Array(data.bytes)
    }

    static func put(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ name: String, _ value: [UInt8]) throws {
        var key = Array(name.utf8)
        var value = value
        let rc = key.withUnsafeMutableBytes { k in
            value.withUnsafeMutableBytes { v in
                var kv = MDB_val(mv_size: k.count, mv_data: k.baseAddress)
                var vv = MDB_val(mv_size: v.count, mv_data: v.baseAddress)
                return mdb_put(txn, dbi, &kv, &vv, 0)
            }
        }
        try lmdbCheck(rc, "write metadata '\(name)'")
    }

    /// The next key `entity` will assign.
    ///
    /// - Throws: `corruptStore` for a counter of the wrong size or below 1.
    func nextKey(_ entity: EntitySchema) throws -> Int64 {
        guard let bytes = try Self.get(txn, layout.meta, LMDBLayout.counterName(entity)) else { return 1 }
        let value = bytes.count == 8 ? bytes.withUnsafeBytes { LMDBKeyCodec.readBigEndian($0.baseAddress!) } : 0
        guard value >= 1 else {
            throw StrataError(.corruptStore, "The key counter of '\(entity.name)' in the metadata database is damaged; restore the environment from a backup.", entity: entity.name, file: file)
        }
        return value
    }

    func setNextKey(_ entity: EntitySchema, _ next: Int64) throws {
        try Self.put(txn, layout.meta, LMDBLayout.counterName(entity), withUnsafeBytes(of: LMDBKeyCodec.bigEndian(next)) { Array($0) })
    }
}
