import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataJSON
import StrataTestSupport
import Testing

/// Issue 8, finding 11, and the read-only mode: readers beside a writer, reading never writes, the
/// lock names its holder, older formats migrate on the first save, mismatches say what differs.
struct JSONSharingTests {
    typealias T = JSONFileTests

    static func reader(_ file: URL, schema: Schema = FixtureDomain.schema) throws -> JSONStore {
        try JSONStore(JSONStoreConfiguration(url: file, schema: schema, isReadOnly: true))
    }

    static func listing(_ dir: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) { files[name] = try Data(contentsOf: dir.appendingPathComponent(name)) }
        return files
    }

    @Test func readersOpenBesideAWriterAndSeeItsSaves() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        let writer = try T.open(file, wait: nil)
        let first = try Self.reader(file), second = try Self.reader(file)
        _ = try writer.save(SaveRequest(inserted: [try T.tag("seen")]))
        let deadline = ContinuousClock.now + .seconds(10)
        while try first.fetchCount(FetchDescriptor(entity: "Tag")) == 0, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(try first.fetch(FetchDescriptor(entity: "Tag")).map { $0["name"] } == ["seen"])
        let error = try #require(throws: StrataError.self) { try second.save(SaveRequest(inserted: [try T.tag("no")])) }
        #expect(error.code == .readOnlyStore)
    }

    /// The point lookup looks for another store's commits as a fetch does: a reader that holds a
    /// record sees its update and its delete (it would wait out the deadline otherwise).
    @Test func aReaderPointLookupSeesTheWritersUpdateAndDelete() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        let writer = try T.open(file, wait: nil)
        let tag = try T.tag("before")
        let id = try #require(try writer.save(SaveRequest(inserted: [tag])).remappedIdentifiers[tag.persistentIdentifier])
        let reader = try Self.reader(file)
        #expect(try reader.snapshot(for: id)?["name"] == "before")
        let stored = try #require(try writer.snapshot(for: id))
        _ = try writer.save(SaveRequest(updated: [try stored.updating(["name": "after"])]))
        let deadline = ContinuousClock.now + .seconds(10)
        while try reader.snapshot(for: id)?["name"] != "after", ContinuousClock.now < deadline { usleep(1_000) }
        #expect(try reader.snapshot(for: id)?["name"] == "after")
        _ = try writer.save(SaveRequest(deleted: [try #require(try writer.snapshot(for: id))]))
        while try reader.snapshot(for: id) != nil, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(try reader.snapshot(for: id) == nil)
    }

    @Test func aReadOnlyOpenNeverWrites() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let store = try T.open(file)
            for name in ["a", "b"] { _ = try store.save(SaveRequest(inserted: [try T.tag(name)])) }
        }
        let journal = URL(fileURLWithPath: file.path + ".journal")
        try Data(try Data(contentsOf: journal).dropLast(5)).write(to: journal)  // a torn tail
        try Data("stray".utf8).write(to: URL(fileURLWithPath: file.path + ".tmp-424242"))
        let before = try Self.listing(dir)
        #expect(try Self.reader(file).fetch(FetchDescriptor(entity: "Tag")).map { $0["name"] } == ["a"])
        #expect(try Self.listing(dir) == before)
        let missing = dir.appendingPathComponent("none.json")
        #expect(throws: StrataError.self) { try Self.reader(missing) }
        #expect(try Self.listing(dir) == before)
    }

    @Test func theLockIsOnTheJournalAndNamesAnotherProcess() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do { _ = try T.open(file) }
        let holder = try ChildProcess(URL(fileURLWithPath: "/usr/bin/flock"), ["-x", file.path + ".journal", "-c", "echo locked; read line"])
        defer { holder.finish() }
        #expect(holder.next() == "locked")
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: file.path + ".lock"))  // no lock file to delete around it
        let error = try #require(throws: StrataError.self) { try T.open(file, wait: nil) }
        #expect(error.code == .storeLocked && error.message.contains("Another process"), "\(error)")
        #expect(try Self.reader(file).fetchCount(FetchDescriptor(entity: "Tag")) == 0)  // readers are not locked out
    }

    @Test func aVersion1StoreIsReadAndRewrittenByTheFirstSave() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        let v1 = """
            {"format": "strata-json", "version": 1, "schemaFingerprint": "\(FixtureDomain.schema.fingerprint)",
             "storeIdentifier": "abcdefghijklmno", "journalSequence": 0,
             "entities": {"Tag": {"nextKey": 2, "records": [{"@id": 1, "name": "old", "notes": []}]}}}
            """
        try v1.write(to: file, atomically: false, encoding: .utf8)
        #expect(try Self.reader(file).fetchCount(FetchDescriptor(entity: "Tag")) == 1)
        #expect(try String(contentsOf: file, encoding: .utf8) == v1)
        _ = try T.open(file).save(SaveRequest(inserted: [try T.tag("new")]))
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"version\": 3"))  // the current version
        #expect(try String(contentsOf: JSONDamageTests.journal(file), encoding: .utf8).hasPrefix(String(decoding: Journal.header(store: "abcdefghijklmno"), as: UTF8.self)))
        #expect(try JSONDamageTests.tags(file) == ["new", "old"])
    }

    @Test func aSchemaMismatchListsWhatDiffers() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do { _ = try T.open(file) }
        var entities = FixtureDomain.entities.filter { $0.name != "Part" }
        entities[entities.firstIndex { $0.name == "Tag" }!] = Entity("Tag") {
            Attribute("name", .string, unique: true)
            Attribute("colour", .string, optional: true)
            Relationship.toMany("notes", "Note", inverse: "tag", deleteRule: .noAction)
        }
        let error = try #require(throws: StrataError.self) { try Self.reader(file, schema: try Schema(entities: entities)) }
        #expect(error.code == .schemaMismatch)
        #expect(error.message.contains("entity Part: only in the store"), "\(error)")
        #expect(error.message.contains("Tag.colour: attribute only in this schema"), "\(error)")
    }
}
