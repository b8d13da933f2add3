import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import StrataSQLite
import Testing

/// `SQLiteSnapshot` keeps a fetched row as SQLite gave it and decodes a value when it is read: the
/// values it gives are the ones saved, across the blocks a large scan fills (and a row larger than a
/// block), and a damaged value is still the fetch's typed error.
struct SQLiteSnapshotTests {
    /// Every attribute type, NULLs, NaN and −0, to-ones and ordered and unordered to-manys read back
    /// through a scan and a point lookup equal what was saved.
    @Test func everyValueReadsAsSaved() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteFileTests.open(dir.appendingPathComponent("values.sqlite"))
        let sample = try store.schema.requireEntity("Sample")
        let uuid = UUID(), date = Date(timeIntervalSinceReferenceDate: 12_345.678_9)
        let rows: [[String: Value]] = [
            ["label": "full", "flag": .bool(true), "int": .int(-42), "double": .double(2.5), "string": .string("héllo\u{0}wörld"),
             "date": .date(date), "data": .data(Data([0, 1, 2, 255])), "uuid": .uuid(uuid), "url": .url(URL(string: "https://example.com/a?b=c")!), "count": .int(Int64.min)],
            ["label": "nulls"],
            ["label": "specials", "double": .double(-0.0), "int": .int(0), "flag": .bool(false), "string": .string(""), "data": .data(Data())],
            ["label": "nan", "double": .double(.nan), "date": .date(Date(timeIntervalSinceReferenceDate: -0.0))],
        ]
        let inserted = try rows.map { try SQLiteSnapshot.inserting(sample, values: $0) }
        let remap = try store.save(SaveRequest(inserted: inserted)).remappedIdentifiers
        let scanned = try store.fetch(FetchDescriptor(entity: "Sample"))
        #expect(scanned.count == rows.count)
        for snapshot in inserted {
            let id = try #require(remap[snapshot.persistentIdentifier])
            let fetched = try #require(scanned.first { $0.persistentIdentifier == id })
            let looked = try #require(try store.snapshot(for: id))
            for read in [fetched, looked] {
                #expect(read.entity === sample)
                #expect(read.attributeValues.count == sample.attributes.count)
                for i in sample.attributes.indices {
                    let (want, got) = (snapshot.attributeValue(at: i), read.attributeValue(at: i))
                    #expect(Self.same(want, got), "\(sample.attributes[i].name): saved \(want), read \(got)")
                    #expect(Self.same(read.attributeValues[i], got))
                }
            }
        }

        // Relationships: a to-one, NULL to-ones, an unordered and an ordered to-many.
        try FixtureDomain.writeSample(into: store)
        for entity in store.schema.entities where !entity.relationships.isEmpty {
            for record in try store.fetch(FetchDescriptor(entity: entity.name)) {
                let looked = try #require(try store.snapshot(for: record.persistentIdentifier))
                #expect(record.relationshipValues == looked.relationshipValues)
                #expect(record.attributeValues.count == looked.attributeValues.count)
                for r in entity.relationships.indices { #expect(record.relationshipValue(at: r) == record.relationshipValues[r]) }
            }
        }
        let library = try #require(try store.fetch(FetchDescriptor(entity: "Library")).first)
        let shelves = try #require(try store.schema.requireEntity("Library").relationshipIndex("shelves"))
        guard case .toMany(let ids) = library.relationshipValue(at: shelves) else { Issue.record("shelves is not a to-many"); return }
        #expect(!ids.isEmpty && ids.allSatisfy { $0.entityName == "Shelf" })
    }

    /// A scan larger than one block, and a row larger than a block, read back whole and in order,
    /// through the scan and a point lookup.
    @Test func aScanAcrossBlocksAndARowLargerThanABlock() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteFileTests.open(dir.appendingPathComponent("blocks.sqlite"))
        let sample = try store.schema.requireEntity("Sample")
        // 6,000 rows of about 40 words each fill several blocks of 4,096 words; one text of 1 MB
        // in the middle is larger than a block.
        let large = String(repeating: "x", count: 1 << 20)
        let texts = (0..<6_000).map { $0 == 3_000 ? large : "row \($0) " + String(repeating: "é", count: $0 % 200) }
        _ = try store.save(SaveRequest(inserted: try texts.enumerated().map { i, text in
            try SQLiteSnapshot.inserting(sample, values: ["label": .string(String(format: "%05d", i)), "string": .string(text), "int": .int(Int64(i))])
        }))
        let scanned = try store.fetch(FetchDescriptor(entity: "Sample", sortBy: [SortKey("label")]))
        #expect(scanned.count == texts.count)
        let string = try #require(sample.attributeIndex("string")), int = try #require(sample.attributeIndex("int"))
        for (i, snapshot) in scanned.enumerated() {
            #expect(snapshot.attributeValue(at: string) == .string(texts[i]))
            #expect(snapshot.attributeValue(at: int) == .int(Int64(i)))
        }
        // A point lookup sizes its block for a short row; the large one gets a block of its own.
        for i in [0, 3_000, 5_999] {
            let looked = try #require(try store.snapshot(for: scanned[i].persistentIdentifier))
            #expect(looked.attributeValue(at: string) == .string(texts[i]))
        }
    }

    /// A UUID column holding 3 bytes (another program's write): the fetch throws a typed error, and
    /// the other records still read.
    @Test func aDamagedValueIsTheFetchsTypedError() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("damaged.sqlite")
        do {
            let store = try SQLiteFileTests.open(file)
            try FixtureDomain.writeSample(into: store)
        }
        try SQLiteFileTests.edit(file, "UPDATE Sample SET uuid = X'010203' WHERE rowid = (SELECT min(rowid) FROM Sample)")
        let store = try SQLiteFileTests.open(file)
        let error = try #require(throws: StrataError.self) { try store.fetch(FetchDescriptor(entity: "Sample")) }
        #expect(error.code == .corruptStore, "\(error)")
        #expect(try store.fetch(FetchDescriptor(entity: "Book")).count > 0)
    }

    /// Values compare as stored: NaN equals NaN, and −0 is not +0.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)): x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        default: a == b
        }
    }
}
