import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// The named databases of a store and their handles, derived from the schema.
///
/// Names (`docs/formats/lmdb.md`): `strata.meta`; `e.<Entity>` records by big-endian key;
/// `u.<Entity>.<p1,p2…>` one per unique constraint (value key → owner key); `i.<Entity>.<p…>` one per
/// index (value key → keys, duplicate-sorted); `r.<Entity>.<relationship>` one per to-many side
/// (owner key → target keys, duplicate-sorted; an ordered side's values are position then key).
/// To-one targets are in the record, so every relationship side is stored explicitly and delete rules
/// and inverse maintenance find every referrer with a lookup, never a scan.
final class LMDBLayout: @unchecked Sendable {
    let schema: Schema
    let meta: MDB_dbi
    let records: [MDB_dbi]
    let uniques: [[MDB_dbi]]
    let indexes: [[MDB_dbi]]
    /// Per entity and relationship, the to-many side's database (0 for a to-one).
    let toMany: [[MDB_dbi]]

    static let metaName = "strata.meta"

    static func recordsName(_ e: EntitySchema) -> String { fitted("e.\(e.name)") }
    static func uniqueName(_ e: EntitySchema, _ c: Int) -> String { fitted("u.\(e.name).\(e.uniqueConstraints[c].map(e.name(of:)).joined(separator: ","))") }
    static func indexName(_ e: EntitySchema, _ i: Int) -> String { fitted("i.\(e.name).\(e.indexes[i].map(e.name(of:)).joined(separator: ","))") }
    static func toManyName(_ e: EntitySchema, _ r: Int) -> String { fitted("r.\(e.name).\(e.relationships[r].name)") }

    /// How many named databases the schema needs.
    static func databaseCount(_ schema: Schema) -> Int {
        1 + schema.entities.reduce(0) { $0 + 1 + $1.uniqueConstraints.count + $1.indexes.count + $1.relationshipIsToMany.filter { $0 }.count }
    }

    /// The environment's database slots for stores of `schemas`: room for the databases of two
    /// schemas at once (a migration opens the new ones while a store of this process may hold the
    /// old ones), and at least 128, so an environment opened by a store of one version has room
    /// for a migration to the next (liblmdb fixes the count when the environment opens).
    static func environmentSlots(_ schemas: Schema...) -> Int {
        max(128, 2 * schemas.map(databaseCount).reduce(0, +) + 2)
    }

    /// The name of every database the schema needs, in the order `databases` lists them.
    static func databaseNames(_ schema: Schema) -> [String] {
        [metaName] + schema.entities.flatMap { e in
            [recordsName(e)] + e.uniqueConstraints.indices.map { uniqueName(e, $0) } + e.indexes.indices.map { indexName(e, $0) }
                + e.relationships.indices.filter { e.relationshipIsToMany[$0] }.map { toManyName(e, $0) }
        }
    }

    /// Every database of the layout with its name.
    var databases: [(name: String, dbi: MDB_dbi)] {
        let handles = [meta] + schema.entities.flatMap { e in
            [records[e.index]] + uniques[e.index] + indexes[e.index] + e.relationships.indices.filter { e.relationshipIsToMany[$0] }.map { toMany[e.index][$0] }
        }
        return Array(zip(Self.databaseNames(schema), handles)).map { (name: $0.0, dbi: $0.1) }
    }

    /// Opens every database of an existing store in `txn`.
    ///
    /// - Throws: `corruptStore` naming `file` when one is missing.
    convenience init(existing schema: Schema, txn: OpaquePointer, file: String) throws {
        do {
            try self.init(schema: schema, txn: txn, create: false)
        } catch let error as LMDBError where error.code == MDB_NOTFOUND {
            throw StrataError(.corruptStore, "The store lacks a database its schema needs (\(error.operation)); restore it from a backup.", file: file)
        }
    }

    /// Opens every database in `txn`; `create` makes missing ones (a new store).
    ///
    /// - Throws: `MDB_NOTFOUND` as an `LMDBError` when a database is missing and `create` is false.
    init(schema: Schema, txn: OpaquePointer, create: Bool) throws {
        self.schema = schema
        func open(_ name: String, _ flags: Int32) throws -> MDB_dbi {
            var dbi: MDB_dbi = 0
            try lmdbCheck(mdb_dbi_open(txn, name, UInt32(flags | (create ? MDB_CREATE : 0)), &dbi), "open database '\(name)'")
            return dbi
        }
        let dups = MDB_DUPSORT | MDB_DUPFIXED
        meta = try open(Self.metaName, 0)
        records = try schema.entities.map { try open(Self.recordsName($0), 0) }
        uniques = try schema.entities.map { e in try e.uniqueConstraints.indices.map { try open(Self.uniqueName(e, $0), dups) } }
        indexes = try schema.entities.map { e in try e.indexes.indices.map { try open(Self.indexName(e, $0), dups) } }
        toMany = try schema.entities.map { e in
            try e.relationships.indices.map { e.relationshipIsToMany[$0] ? try open(Self.toManyName(e, $0), dups) : 0 }
        }
    }
}

/// An `MDB_val` over bytes that outlive the call.
@inline(__always)
func withValue<T>(_ bytes: UnsafeRawBufferPointer, _ body: (inout MDB_val) throws -> T) rethrows -> T {
    var v = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
    return try body(&v)
}

/// An `MDB_val` over a primary key's 8 big-endian bytes.
@inline(__always)
func withKey<T>(_ key: Int64, _ body: (inout MDB_val) throws -> T) rethrows -> T {
    var be = LMDBKeyCodec.bigEndian(key)
    return try withUnsafeMutableBytes(of: &be) { raw in
        var v = MDB_val(mv_size: 8, mv_data: raw.baseAddress)
        return try body(&v)
    }
}

extension MDB_val {
    /// The bytes the value points at.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: mv_data, count: mv_size) }
}
