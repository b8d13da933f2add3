import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// What every transaction of one opened store reads: its databases, identifier and path, behind one
/// reference, so a transaction's reader copies one pointer instead of a layout and two strings
/// (limit: Benchmarks/Thresholds/lmdb-fetch-by-id.txt).
final class LMDBContext: Sendable {
    let layout: LMDBLayout
    let storeIdentifier: String
    let file: String
    /// The schema's entities, for the point lookup's search by name: calling `Schema`'s own
    /// search on `layout.schema` copied the whole struct per lookup (limit:
    /// Benchmarks/Thresholds/lmdb-fetch-by-id.txt).
    let entities: [EntitySchema]
    /// Whether each entity (by index) has a to-many relationship, whose lists a snapshot reads
    /// with the record.
    let hasToMany: [Bool]
    /// Each entity's record layout (by index): slots, ends and check steps.
    let shapes: [LMDBRecordShape]

    init(layout: LMDBLayout, storeIdentifier: String, file: String) {
        self.layout = layout
        self.storeIdentifier = storeIdentifier
        self.file = file
        self.entities = layout.schema.entities
        self.hasToMany = layout.schema.entities.map { $0.relationshipIsToMany.contains(true) }
        self.shapes = layout.schema.entities.map(LMDBRecordShape.init)
    }

    /// `LMDBRecordCodec.check` with the entity's shape made once, at open: the fast check first.
    @inline(__always)
    func check(_ bytes: UnsafeRawBufferPointer, _ entity: EntitySchema, key: Int64) throws -> Int {
        let shape = shapes[entity.index]
        if let links = LMDBRecordCodec.quickCheck(bytes, key: key, shape: shape) { return links }
        return try LMDBRecordCodec.check(bytes, shape, key: key, file: file)
    }

    /// The entity named `name`; a few names are compared in place (lengths first), more are
    /// looked up through the schema.
    ///
    /// - Throws: `unknownEntity` when the schema has none, as `Schema.requireEntity` does.
    func entity(named name: String) throws -> EntitySchema {
        if entities.count <= 8 {
            let length = name.utf8.count
            for entity in entities where entity.name.utf8.count == length && entity.name == name { return entity }
        }
        return try layout.schema.requireEntity(name)
    }
}

/// Reads records and to-many lists inside one transaction (read or write) and builds snapshots.
struct LMDBRecords {
    let txn: OpaquePointer
    let context: LMDBContext

    var layout: LMDBLayout { context.layout }
    var storeIdentifier: String { context.storeIdentifier }
    var file: String { context.file }

    /// The record of `entity` with `key`, or `nil`.
    func record(_ entity: EntitySchema, _ key: Int64) throws -> LMDBRecord? {
        var data = MDB_val()
        let rc = withKey(key) { mdb_get(txn, layout.records[entity.index], &$0, &data) }
        if rc == MDB_NOTFOUND { return nil }
        try lmdbCheck(rc, "read \(entity.name) \(key)")
        return try LMDBRecordCodec.decode(data.bytes, context.shapes[entity.index], key: key, file: file)
    }

    /// Whether `entity` holds a record with `key`.
    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool {
        var data = MDB_val()
        let rc = withKey(key) { mdb_get(txn, layout.records[entity.index], &$0, &data) }
        if rc == MDB_NOTFOUND { return false }
        try lmdbCheck(rc, "read \(entity.name) \(key)")
        return true
    }

    /// The targets of to-many relationship `r` of record `key`, in order.
    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        var result: [Int64] = []
        try forEachTarget(entity, key, r) { result.append($0); return true }
        return result
    }

    /// Visits the targets of to-many `r` of `key` in order (with their stored value); stop by returning false.
    ///
    /// The lists are `DUPFIXED`, so entries come a page at a time (`MDB_GET_MULTIPLE`, then
    /// `MDB_NEXT_MULTIPLE`), not one `MDB_NEXT_DUP` per entry (limit: Benchmarks/Thresholds/lmdb-scan.txt).
    func forEachTarget(_ entity: EntitySchema, _ key: Int64, _ r: Int, _ body: (Int64) throws -> Bool) throws {
        let width = entity.relationships[r].isOrdered ? 16 : 8
        try withCursor(layout.toMany[entity.index][r]) { cursor in
            try withKey(key) { k in
                var data = MDB_val()
                var rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_KEY)
                if rc == MDB_NOTFOUND { return }
                try lmdbCheck(rc, "read list \(entity.relationships[r].name)")
                // Every entry of a DUPFIXED list has the first one's size.
                guard data.mv_size == width else {
                    throw StrataError(.corruptStore, "The list '\(entity.relationships[r].name)' of \(entity.name) \(key) holds a \(data.mv_size)-byte entry; restore the environment from a backup.", entity: entity.name, file: file)
                }
                rc = mdb_cursor_get(cursor, &k, &data, MDB_GET_MULTIPLE)
                while rc == 0 {
                    guard data.mv_size % width == 0, let base = data.mv_data else {
                        throw StrataError(.corruptStore, "The list '\(entity.relationships[r].name)' of \(entity.name) \(key) holds a page of \(data.mv_size) bytes; restore the environment from a backup.", entity: entity.name, file: file)
                    }
                    for offset in stride(from: width - 8, to: data.mv_size, by: width) {
                        guard try body(LMDBKeyCodec.readBigEndian(base + offset)) else { return }
                    }
                    rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT_MULTIPLE)
                }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "read list \(entity.relationships[r].name)") }
            }
        }
    }

    /// Whether unordered to-many `r` of `key` holds `target` (one lookup).
    func holds(_ entity: EntitySchema, _ key: Int64, _ r: Int, _ target: Int64) throws -> Bool {
        if entity.relationships[r].isOrdered {
            var found = false
            try forEachTarget(entity, key, r) { found = $0 == target; return !found }
            return found
        }
        return try withCursor(layout.toMany[entity.index][r]) { cursor in
            try withKey(key) { k in
                try withKey(target) { t in
                    let rc = mdb_cursor_get(cursor, &k, &t, MDB_GET_BOTH)
                    if rc == MDB_NOTFOUND { return false }
                    try lmdbCheck(rc, "read list \(entity.relationships[r].name)")
                    return true
                }
            }
        }
    }

    /// How many targets to-many `r` of `key` holds.
    func count(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> Int {
        try withCursor(layout.toMany[entity.index][r]) { cursor in
            try withKey(key) { k in
                var data = MDB_val()
                let rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_KEY)
                if rc == MDB_NOTFOUND { return 0 }
                try lmdbCheck(rc, "read list")
                var n = 0
                try lmdbCheck(mdb_cursor_count(cursor, &n), "count list")
                return n
            }
        }
    }

    /// Runs `body` with a cursor on `dbi`, closed afterwards.
    func withCursor<T>(_ dbi: MDB_dbi, _ body: (OpaquePointer) throws -> T) throws -> T {
        var cursor: OpaquePointer?
        try lmdbCheck(mdb_cursor_open(txn, dbi, &cursor), "open a cursor")
        defer { mdb_cursor_close(cursor) }
        return try body(cursor!)
    }

    /// The permanent identifier of `entity`'s record `key`.
    @inline(__always)
    func id(_ entityName: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: key)
    }

    /// The snapshot of `entity`'s record `key`, its bytes checked and kept, or `nil`.
    func snapshot(_ entity: EntitySchema, _ key: Int64) throws -> LMDBSnapshot? {
        var data = MDB_val()
        let rc = withKey(key) { mdb_get(txn, layout.records[entity.index], &$0, &data) }
        if rc == MDB_NOTFOUND { return nil }
        try lmdbCheck(rc, "read \(entity.name) \(key)")
        var blocks = LMDBBlocks(context, exact: true)
        return try snapshot(entity, key, data.bytes, into: &blocks)
    }

    /// The snapshot of a record from its stored bytes: checked in full, copied into the current
    /// block, and decoded only when a value is read (`LMDBSnapshot`). An entity with to-many
    /// relationships has its lists read now, while the transaction is open.
    @inline(__always)
    func snapshot(_ entity: EntitySchema, _ key: Int64, _ bytes: UnsafeRawBufferPointer, into blocks: inout LMDBBlocks) throws -> LMDBSnapshot {
        try snapshot(entity, key, bytes, links: try context.check(bytes, entity, key: key), into: &blocks)
    }

    /// `snapshot(_:_:_:into:)` of a record whose bytes `check` accepted (`links`: what it returned).
    @inline(__always)
    func snapshot(_ entity: EntitySchema, _ key: Int64, _ bytes: UnsafeRawBufferPointer, links: Int, into blocks: inout LMDBBlocks) throws -> LMDBSnapshot {
        guard bytes.count <= UInt32.max else {
            throw StrataError(.corruptStore, "Record \(key) of '\(entity.name)' claims \(bytes.count) bytes; restore the environment from a backup.", entity: entity.name, file: file)
        }
        var relationships: [RelationshipValue]?
        if context.hasToMany[entity.index] {
            let names = entity.destinationNames
            var built = [RelationshipValue](repeating: .toOne(nil), count: names.count)
            LMDBRecordCodec.checkedToOne(bytes, context.shapes[entity.index], links: links) { r, target in built[r] = .toOne(id(names[r], target)) }
            for r in entity.relationships.indices where entity.relationshipIsToMany[r] {
                built[r] = .toMany(try targets(entity, key, r).map { id(names[r], $0) })
            }
            relationships = built
        }
        let (block, offset) = blocks.append(bytes, context.shapes[entity.index])
        return LMDBSnapshot(key: key, block: block, at: offset, count: bytes.count, links: links, relationships: relationships)
    }

    /// The snapshot a client sees for a record.
    func snapshot(_ entity: EntitySchema, _ key: Int64, _ record: LMDBRecord) throws -> LMDBSnapshot {
        let count = entity.relationships.count
        let relationships = try [RelationshipValue](unsafeUninitializedCapacity: count) { buffer, initialized in
            for r in 0..<count {
                let destination = entity.destinationNames[r]
                let value: RelationshipValue
                if entity.relationshipIsToMany[r] {
                    value = .toMany(try targets(entity, key, r).map { id(destination, $0) })
                } else {
                    value = .toOne(record.toOne[r].map { id(destination, $0) })
                }
                (buffer.baseAddress! + r).initialize(to: value)
                initialized = r + 1
            }
        }
        return LMDBSnapshot(entity: entity, persistentIdentifier: id(entity.name, key), attributes: record.attributes, relationships: relationships)
    }
}

/// Where a fetch copies the records it hands out: a scan fills blocks of `LMDBBytes.blockSize`
/// one after the other; a point lookup (`exact`) makes one block of the record's size.
///
/// The block being filled is described here — its elements' address, how full it is, whose
/// records it holds — not read from the block's header per record: a scan appends every record
/// through it (limit: Benchmarks/Thresholds/lmdb-scan.txt). A block is handed to snapshots as it
/// fills, but they read only the bytes their own offset and count name, which never change.
struct LMDBBlocks {
    let context: LMDBContext
    let exact: Bool
    private var current: LMDBBytes?
    /// The current block's first byte: a `ManagedBuffer`'s elements never move, and `current`
    /// keeps them alive.
    private var base: UnsafeMutablePointer<UInt8>?
    private var used = 0, capacity = 0
    private var entity: ObjectIdentifier?

    init(_ context: LMDBContext, exact: Bool) {
        self.context = context
        self.exact = exact
    }

    /// Copies a record of `shape`'s entity into the current block (a new one when they do not fit
    /// or the block holds another entity's records) and says where.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape) -> (LMDBBytes, Int) {
        let count = bytes.count
        if current == nil || capacity &- used < count || self.entity != ObjectIdentifier(shape) {
            capacity = exact ? count : max(count, LMDBBytes.blockSize)
            let block = LMDBBytes.make(capacity: capacity, shape: shape, storeIdentifier: context.storeIdentifier)
            current = block
            base = block.withUnsafeMutablePointerToElements { $0 }
            used = 0
            self.entity = ObjectIdentifier(shape)
        }
        let at = used
        if count > 0, let source = bytes.baseAddress { UnsafeMutableRawPointer(base! + at).copyMemory(from: source, byteCount: count) }
        used = at &+ count
        return (current!, at)
    }
}
