import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataJSON
import Testing

/// Issue 8's findings on the JSON backend: kills, flipped bits, dropped lines, deep nesting and
/// dangling references are found at open; repairs happen only inside a save.
struct JSONDamageTests {
    typealias T = JSONFileTests

    static func journal(_ file: URL) -> URL { URL(fileURLWithPath: file.path + ".journal") }

    static func store(saving names: [String], threshold: Int = 1 << 20) throws -> (dir: URL, file: URL) {
        let dir = try T.directory()
        let file = dir.appendingPathComponent("store.json")
        let store = try T.open(file, threshold: threshold)
        for name in names { _ = try store.save(SaveRequest(inserted: [try T.tag(name)])) }
        return (dir, file)
    }

    static func tags(_ file: URL) throws -> [String] {
        try T.open(file).fetch(FetchDescriptor(entity: "Tag", sortBy: [SortKey("name")])).map { $0["name"].string ?? "?" }
    }

    /// Finding 1: the torn tail of a killed save is cut off by the next save (not by open), so that
    /// save and every later one survive.
    @Test func aSaveAfterATornTailIsNotAppendedAfterTheFragment() throws {
        let (dir, file) = try Self.store(saving: ["kept", "torn"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Data(contentsOf: Self.journal(file))
        try bytes.dropLast(7).write(to: Self.journal(file))
        do {
            let store = try T.open(file)
            #expect(try Data(contentsOf: Self.journal(file)) == bytes.dropLast(7))  // opening repaired nothing
            _ = try store.save(SaveRequest(inserted: [try T.tag("after")]))
            _ = try store.save(SaveRequest(inserted: [try T.tag("later")]))
        }
        #expect(try Self.tags(file) == ["after", "kept", "later"])
    }

    /// Finding 1: temporary files of a killed fold are removed by the next save, never by open.
    @Test func temporaryFilesAreRemovedBySavesNotByOpen() throws {
        let (dir, file) = try Self.store(saving: ["a"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let stray = URL(fileURLWithPath: file.path + ".tmp-999999")
        try Data("half a document".utf8).write(to: stray)
        let store = try T.open(file)
        #expect(FileManager.default.fileExists(atPath: stray.path))
        _ = try store.save(SaveRequest(inserted: [try T.tag("b")]))
        #expect(!FileManager.default.fileExists(atPath: stray.path))
    }

    /// Finding 2: one flipped bit anywhere in the only journal line is corrupt, never an empty store.
    @Test func everyFlippedBitOfTheOnlyJournalLineIsCorrupt() throws {
        let (dir, file) = try Self.store(saving: ["only"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = [UInt8](try Data(contentsOf: Self.journal(file)))
        for position in stride(from: 0, to: original.count, by: max(1, original.count / 40)) + [original.count - 1] {
            var damaged = original
            damaged[position] ^= 0x10
            try Data(damaged).write(to: Self.journal(file))
            let error = try #require(throws: StrataError.self, "byte \(position)") { try T.open(file) }
            #expect(error.code == .corruptStore, "byte \(position): \(error)")
        }
    }

    /// Finding 2: lines dropped, repeated or swapped in the middle are found by their sequence numbers.
    @Test func droppedRepeatedOrReorderedLinesAreCorrupt() throws {
        let (dir, file) = try Self.store(saving: ["a", "b", "c"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = try String(contentsOf: Self.journal(file), encoding: .utf8).split(separator: "\n").map { $0 + "\n" }
        let header = all[0], lines = Array(all.dropFirst())  // the journal's header line, then one line per save
        for (what, damaged) in [("dropped", [lines[0], lines[2]]), ("swapped", [lines[0], lines[2], lines[1]]), ("repeated", [lines[0], lines[1], lines[1], lines[2]])] {
            try ([header] + damaged).joined().write(to: Self.journal(file), atomically: false, encoding: .utf8)
            let error = try #require(throws: StrataError.self, "\(what)") { try T.open(file) }
            #expect(error.code == .corruptStore && error.offset != nil, "\(what): \(error)")
        }
        try ([header] + [lines[1], lines[2]]).joined().write(to: Self.journal(file), atomically: false, encoding: .utf8)  // the first save lost
        #expect(throws: StrataError.self) { try T.open(file) }
    }

    /// Every byte of a folded document is covered by its checksum (a seeded sample of positions).
    @Test func everyByteOfTheDocumentIsChecked() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        try FixtureDomain.writeSample(into: try T.open(file, threshold: 0))
        let original = [UInt8](try Data(contentsOf: file))
        var random = SeededGenerator(state: 8)
        for _ in 0..<60 {
            var damaged = original
            let position = Int(random.next() % UInt64(original.count))
            damaged[position] ^= UInt8(1 << (random.next() % 8))
            try Data(damaged).write(to: file)
            let error = try #require(throws: StrataError.self, "byte \(position)") { try T.open(file) }
            #expect(error.code == .corruptStore, "byte \(position): \(error)")
        }
    }

    /// Finding 4: deep nesting is refused by the parser, in the document and in a checksummed line.
    @Test func deepNestingIsCorruptNotACrash() throws {
        let (dir, file) = try Self.store(saving: ["a"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        let header = try String(contentsOf: Self.journal(file), encoding: .utf8).split(separator: "\n")[0] + "\n"
        try Data(Array(header.utf8) + Journal.line(deep)).write(to: Self.journal(file))
        #expect(throws: StrataError.self) { try T.open(file) }
        try Data().write(to: Self.journal(file))
        try Data(deep).write(to: file)
        let error = try #require(throws: StrataError.self) { try T.open(file) }
        #expect(error.code == .corruptStore && error.message.contains("nested deeper"), "\(error)")
    }

    /// Finding 9: a document naming a record it does not hold (checksum made valid) is refused.
    @Test func aReferenceToAMissingRecordIsCorrupt() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        try FixtureDomain.writeSample(into: try T.open(file, threshold: 0))
        let text = String(decoding: try DocumentSeal.json.content(of: [UInt8](try Data(contentsOf: file)), file: file.path), as: UTF8.self)
        let edited = text.replacingOccurrences(of: "\"chapters\":[1,2]", with: "\"chapters\":[1,2,77]")
        #expect(edited != text)
        try Data(DocumentSeal.json.seal(Array(edited.utf8))).write(to: file)
        let error = try #require(throws: StrataError.self) { try T.open(file) }
        #expect(error.code == .corruptStore && error.entity == "Book" && error.properties == ["chapters"], "\(error)")
    }

    /// Issue 9, finding 3: a key consumed by an insert that a cascade deleted in the same save is
    /// never given out again after reopen.
    @Test func aKeyConsumedByACascadedInsertIsNotReused() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        let schema = FixtureDomain.schema
        let library = try DefaultSnapshot.inserting(schema.entity(named: "Library")!, values: ["name": "L"])
        var bookKey: Int64 = 0
        do {
            let store = try T.open(file)
            let saved = try store.save(SaveRequest(inserted: [library]))
            let id = saved.remappedIdentifiers[library.persistentIdentifier]!
            let book = try DefaultSnapshot.inserting(schema.entity(named: "Book")!, values: ["title": "gone"], relationships: ["library": .toOne(id)])
            let stored = try store.fetch(FetchDescriptor(entity: "Library"))[0]
            let result = try store.save(SaveRequest(inserted: [book], deleted: [stored]))
            bookKey = result.remappedIdentifiers[book.persistentIdentifier]?.primaryKey ?? 1
        }
        let store = try T.open(file)
        let again = try DefaultSnapshot.inserting(schema.entity(named: "Library")!, values: ["name": "M"])
        let id = try store.save(SaveRequest(inserted: [again])).remappedIdentifiers[again.persistentIdentifier]!
        let book = try DefaultSnapshot.inserting(schema.entity(named: "Book")!, values: ["title": "new"], relationships: ["library": .toOne(id)])
        let key = try store.save(SaveRequest(inserted: [book])).remappedIdentifiers[book.persistentIdentifier]!.primaryKey
        #expect(key > bookKey)
    }

    /// A missing journal of a current-format store is damage (saves since the last fold would be lost).
    @Test func aMissingJournalIsCorrupt() throws {
        let (dir, file) = try Self.store(saving: ["a"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: Self.journal(file))
        #expect(throws: StrataError.self) { try T.open(file) }
        #expect(throws: StrataError.self) { try JSONStore(JSONStoreConfiguration(url: file, schema: FixtureDomain.schema, isReadOnly: true)) }
        #expect(!FileManager.default.fileExists(atPath: Self.journal(file).path))
    }

    /// A deleted document is damage even right after a fold (a journal without saves): never a new, empty store.
    @Test func aMissingDocumentIsCorruptNeverANewStore() throws {
        let (dir, file) = try Self.store(saving: ["a"], threshold: 0)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try String(contentsOf: Self.journal(file), encoding: .utf8).split(separator: "\n").count == 1)  // its header alone
        try FileManager.default.removeItem(at: file)
        let error = try #require(throws: StrataError.self) { try T.open(file) }
        #expect(error.code == .corruptStore, "\(error)")
        #expect(throws: StrataError.self) { try JSONStore(JSONStoreConfiguration(url: file, schema: FixtureDomain.schema, isReadOnly: true)) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// A journal older than the document (a stale copy put back) is refused.
    @Test func aStaleJournalIsCorrupt() throws {
        let (dir, file) = try Self.store(saving: ["a", "b"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let stale = try Data(contentsOf: Self.journal(file))
        do {
            let store = try T.open(file, threshold: 0)
            _ = try store.save(SaveRequest(inserted: [try T.tag("c")]))  // folds: the document is at sequence 3
        }
        try stale.write(to: Self.journal(file))
        let error = try #require(throws: StrataError.self) { try T.open(file) }
        #expect(error.code == .corruptStore && error.message.contains("older than the document"), "\(error)")
    }
}
