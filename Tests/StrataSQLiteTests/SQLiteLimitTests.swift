import Foundation
import Strata
import StrataConformance
import StrataSQLite
import Testing

/// SQLite at its limits: a key sequence at `Int64.max`, cascades far deeper than SQLite's trigger
/// recursion limit.
struct SQLiteLimitTests {
    @Test func aSequenceAtTheLimitIsKeysExhaustedNotATrap() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("keys.sqlite")
        let tagEntity = FixtureDomain.schema.entity(named: "Tag")!
        func tag(_ name: String) throws -> SQLiteSnapshot { try SQLiteSnapshot.inserting(tagEntity, values: ["name": .string(name)]) }
        do {
            let store = try SQLiteFileTests.open(file)
            _ = try store.save(SaveRequest(inserted: [try tag("first")]))
        }
        try SQLiteFileTests.edit(file, "UPDATE sqlite_sequence SET seq = 9223372036854775805 WHERE name = 'Tag'")
        let store = try SQLiteFileTests.open(file)
        let last = try tag("last")
        let result = try store.save(SaveRequest(inserted: [last]))
        #expect(result.remappedIdentifiers[last.persistentIdentifier]?.primaryKey == Int64.max - 1)
        let error = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: [try tag("one too many")])) }
        #expect(error.code == .keysExhausted)
        #expect(try store.fetchCount(FetchDescriptor(entity: "Tag")) == 2)
        // Already at Int64.max (a file written by another program): the same error.
        try SQLiteFileTests.edit(file, "UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'Tag'")
        let full = try SQLiteFileTests.open(file)
        #expect(throws: StrataError.self) { try full.save(SaveRequest(inserted: [try tag("again")])) }
    }

    @Test func aCascadeChainOfFiveThousandIsDeletedWhole() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteFileTests.open(dir.appendingPathComponent("chain.sqlite"))
        let part = FixtureDomain.schema.entity(named: "Part")!
        var parts = try (0..<5_000).map { try SQLiteSnapshot.inserting(part, values: ["name": .string("p\($0)")]) }
        for i in 0..<(parts.count - 1) { parts[i] = try parts[i].updating(relationships: ["next": .toOne(parts[i + 1].persistentIdentifier)]) }
        let result = try store.save(SaveRequest(inserted: parts))
        let head = try store.fetch(FetchDescriptor(entity: "Part", predicate: .identifierIn([result.remappedIdentifiers[parts[0].persistentIdentifier]!])))
        let deleted = try store.save(SaveRequest(deleted: head))
        #expect(deleted.deletedIdentifiers.count == 5_000)
        #expect(try store.fetchCount(FetchDescriptor(entity: "Part")) == 0)
        #expect(try SQLiteFileTests.shell(dir.appendingPathComponent("chain.sqlite"), "PRAGMA foreign_key_check") == "")
    }
}
