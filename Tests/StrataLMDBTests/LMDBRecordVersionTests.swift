import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import Testing

@testable import StrataLMDB

/// Record version 4 against its definition (docs/formats/lmdb.md, "Records"), and a store whose
/// records were written by earlier versions: every version reads the same through every path.
struct LMDBRecordVersionTests {
    /// A record of `LMDBCodecTests.sample` written out byte by byte as the format page defines
    /// version 4: the codec must write exactly these bytes and read them back.
    @Test func version4IsTheDefinedLayout() throws {
        let shape = LMDBCodecTests.sampleShape
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .null, .string("hi"), .null, .data(Data([9])), .null, .null], toOne: [2, nil, nil])
        func le(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        // 8 attributes and 2 to-ones: 10 presence bits in 2 bytes (flag, count, text, blob; first).
        var body: [UInt8] = [0b0010_1011, 0b0000_0001]
        body += [1] + le(5) + le(0) + le(0) + [UInt8](repeating: 0, count: 16)  // flag, count, ratio, when, uuid
        body += le(2) + le(0)  // first, second
        body += [72, 0, 73, 0, 73, 0]  // where text, blob and link end (2 bytes each: a short record)
        body += Array("hi".utf8) + [9]
        let sum = LMDBCodecTests.referenceCRC32C(le(7) + body)
        let expected = [4] + withUnsafeBytes(of: sum.littleEndian, Array.init) + body
        let bytes = LMDBRecordCodec.encoded(record, shape, key: 7)
        #expect(bytes == expected)
        #expect(try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 7, file: "test") } == record)
        #expect(LMDBCodecTests.quickCheck(bytes, shape.entity, key: 7) == shape.toOneStart)
    }

    /// A record over 65,535 bytes has 4-byte ends; at the boundary the narrow form is kept.
    @Test(arguments: [65_463, 65_464, 70_000]) func aLongRecordHasWideEnds(length: Int) throws {
        let shape = LMDBCodecTests.sampleShape
        let text = String(repeating: "a", count: length)
        let record = LMDBRecord(attributes: [.null, .null, .null, .string(text), .null, .data(Data([1, 2])), .null, .null], toOne: [nil, nil, 3])
        let bytes = LMDBRecordCodec.encoded(record, shape, key: 1)
        let wide = bytes.count > 0xFFFF
        #expect(bytes.count == shape.endsStart + 3 * (wide ? 4 : 2) + length + 2)
        // Narrow, the record is 72 bytes beside the text: 65,463 characters make 65,535 bytes.
        #expect(wide == (length > 65_463), "\(bytes.count) bytes")
        #expect(try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 1, file: "test") } == record)
        #expect(LMDBCodecTests.quickCheck(bytes, shape.entity, key: 1) == shape.toOneStart)
        var cut = Array(bytes.dropLast())
        cut = LMDBCodecTests.asVersion(4, cut, key: 1)
        #expect(LMDBCodecTests.quickCheck(cut, shape.entity, key: 1) == nil, "one byte short of its last end")
        #expect(throws: StrataError.self) { try LMDBCodecTests.check(cut, shape.entity, key: 1) }
    }

    /// Every record of the fixture rewritten in place as version `version` (an environment an
    /// earlier Strata wrote): fetches, scans, point lookups and counts read what version 4 read;
    /// an update writes the record as version 4 and leaves the others as they were.
    @Test(arguments: [UInt8(1), 2, 3]) func aStoreOfEarlierRecordVersionsReadsTheSame(version: UInt8) throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let schema = FixtureDomain.schema
        var before: [String: [[Value]]] = [:]
        do {
            let store = try LMDBFileTests.open(folder)
            _ = try FixtureDomain.writeSample(into: store)
            for entity in schema.entities { before[entity.name] = try Self.contents(store, entity) }
        }
        var rewritten = 0
        try LMDBFileTests.edit(folder) { txn, _ in
            for entity in schema.entities { rewritten += try Self.rewrite(txn, LMDBRecordShape(entity), version: version) }
        }
        #expect(rewritten > 10)
        let book: LMDBSnapshot, title = try #require(schema.entity(named: "Book")?.attributeIndex("title"))
        do {
            let store = try LMDBFileTests.open(folder)
            for entity in schema.entities {
                #expect(try Self.contents(store, entity) == before[entity.name], "\(entity.name), version \(version)")
                #expect(try store.fetchCount(FetchDescriptor(entity: entity.name)) == before[entity.name]?.count)
                for snapshot in try store.fetch(FetchDescriptor(entity: entity.name)) {
                    let one = try #require(try store.snapshot(for: snapshot.persistentIdentifier))
                    #expect(one.attributeValues == snapshot.attributeValues && one.relationshipValues == snapshot.relationshipValues)
                }
            }
            book = try #require(try store.fetch(FetchDescriptor(entity: "Book")).first)
            var values = book.attributeValues
            values[title] = .string("rewritten")
            _ = try store.save(SaveRequest(updated: [LMDBSnapshot(entity: book.entity, persistentIdentifier: book.persistentIdentifier, attributes: values, relationships: book.relationshipValues)]))
        }
        var versions: [Int64: UInt8] = [:]
        try LMDBFileTests.edit(folder) { txn, _ in
            var dbi: MDB_dbi = 0
            try #require(mdb_dbi_open(txn, "e.Book", 0, &dbi) == 0)
            try Self.each(txn, dbi) { key, bytes in versions[key] = bytes[0] }
        }
        #expect(versions[book.persistentIdentifier.primaryKey] == 4, "a save writes version 4")
        #expect(versions.filter { $0.key != book.persistentIdentifier.primaryKey }.values.allSatisfy { $0 == version }, "\(versions)")
        #expect(try LMDBFileTests.open(folder).snapshot(for: book.persistentIdentifier)?.attributeValue(at: title) == .string("rewritten"))
    }

    /// Every record of `entity` (attributes, then the relationships as keys), in key order.
    static func contents(_ store: LMDBStore, _ entity: EntitySchema) throws -> [[Value]] {
        try store.fetch(FetchDescriptor(entity: entity.name)).map { s in
            s.attributeValues + s.relationshipValues.map { .string($0.targets.map { String($0.primaryKey) }.joined(separator: ",")) }
        }
    }

    /// Visits every record of a database with its key.
    static func each(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ body: (Int64, [UInt8]) throws -> Void) throws {
        var cursor: OpaquePointer?
        try #require(mdb_cursor_open(txn, dbi, &cursor) == 0)
        defer { mdb_cursor_close(cursor) }
        var k = MDB_val(), data = MDB_val()
        var rc = mdb_cursor_get(cursor, &k, &data, MDB_FIRST)
        while rc == 0 {
            try body(LMDBKeyCodec.readBigEndian(k.mv_data), Array(data.bytes))
            rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT)
        }
    }

    /// Rewrites every record of `shape`'s entity as record `version` (1 to 3); returns how many.
    static func rewrite(_ txn: OpaquePointer, _ shape: LMDBRecordShape, version: UInt8) throws -> Int {
        var dbi: MDB_dbi = 0
        try #require(mdb_dbi_open(txn, "e.\(shape.entity.name)", 0, &dbi) == 0)
        var old: [(Int64, [UInt8])] = []
        try each(txn, dbi) { key, bytes in
            #expect(bytes[0] == 4, "a save writes version 4")
            let record = try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: key, file: "test") }
            old.append((key, LMDBCodecTests.asVersion(version, LMDBRecordCodec.encodedVersion3(record, shape.entity, key: key), key: key)))
        }
        for (key, bytes) in old {
            try withKey(key) { k in
                try bytes.withUnsafeBytes { raw in
                    var v = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
                    try #require(mdb_put(txn, dbi, &k, &v, 0) == 0)
                }
            }
        }
        return old.count
    }
}
