import Foundation
import Strata
import StrataConformance
import StrataSQLite
import Testing

/// Rows another program wrote: the row decoder reads a column's value before asking its storage
/// class (`SQLiteColumnReads`), so these pin down that a stored 0 is still 0, NULL still nil, and
/// text that is not UTF-8 is repaired rather than trusted — through a scan and a point lookup alike.
struct SQLiteHandEditedRowTests {
    @Test func zeroesNullsAndBadUTF8ReadAsStored() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("edited.sqlite")
        do {
            let store = try SQLiteFileTests.open(file)
            try FixtureDomain.writeSample(into: store)
        }
        // Zeroes where NULL would also read 0; NULL where the schema says required; bytes that are
        // not UTF-8 in a TEXT column; a real 0 whose companion is set (−0) and one without.
        try SQLiteFileTests.edit(file, """
            UPDATE Sample SET flag = 0, int = 0, double = 0, double__bits = NULL, string = CAST(X'66FF6F' AS TEXT), date = NULL, date__bits = NULL, count = NULL WHERE label = 'edges';
            UPDATE Sample SET flag = NULL, int = NULL, double = 0, double__bits = -9223372036854775808 WHERE label = 'nils';
            UPDATE Note SET tag = 0;
            """)
        let store = try SQLiteFileTests.open(file)
        let sample = store.schema.entity(named: "Sample")!
        func check(_ snapshots: [SQLiteSnapshot]) throws {
            let edges = try #require(snapshots.first { $0["label"] == "edges" })
            #expect(edges["flag"] == .bool(false))
            #expect(edges["int"] == .int(0))
            #expect(edges["double"].double?.bitPattern == (0.0 as Double).bitPattern)
            #expect(edges["string"] == .string("f\u{FFFD}o"))
            #expect(edges["date"] == .null)
            #expect(edges["count"] == .null)
            let nils = try #require(snapshots.first { $0["label"] == "nils" })
            #expect(nils["flag"] == .null)
            #expect(nils["int"] == .null)
            #expect(nils["double"].double?.bitPattern == (-0.0 as Double).bitPattern)
            #expect(nils["string"] == .null)
        }
        let scanned = try store.fetch(FetchDescriptor(entity: sample.name))
        try check(scanned)
        try check(try scanned.map { try #require(try store.snapshot(for: $0.persistentIdentifier)) })
        let note = try #require(try store.fetch(FetchDescriptor(entity: "Note")).first)
        #expect(note.relationshipValues[0].target?.primaryKey == 0)
    }
}

/// Issue 29: a row whose key no save writes (0, -1, `Int64.max`) is `corruptStore` at open, as on
/// every other backend (`docs/store-contract.md`: a stored key outside the range is damage).
struct SQLiteKeyRangeTests {
    @Test(arguments: [Int64(-1), 0, .max]) func aKeyOutsideTheRangeIsCorrupt(key: Int64) throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("edited.sqlite")
        do { try FixtureDomain.writeSample(into: try SQLiteFileTests.open(file)) }
        try SQLiteFileTests.edit(file, "UPDATE Sample SET _pk = \(key) WHERE label = 'edges';")
        let error = try #require(throws: StrataError.self) { try SQLiteFileTests.open(file) }
        #expect(error.code == .corruptStore, "\(error)")
        #expect(error.entity == "Sample" && error.message.contains("primary key \(key)"), "\(error)")
    }
}
