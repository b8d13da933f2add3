import Foundation
import Strata
import StrataConformance
import StrataSQLite
import Testing

/// SQLite at its limits: a key sequence at `Int64.max`.
struct SQLiteLimitTests {
    @Test func aSequenceAtTheLimitIsKeysExhaustedNotATrap() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("keys.sqlite")
        let tagEntity = FixtureDomain.schema.entity(named: "Tag")!
        func tag(_ name: String) throws -> DefaultSnapshot { try DefaultSnapshot.inserting(tagEntity, values: ["name": .string(name)]) }
        do {
            let store = try SQLiteFileTests.open(file)
            _ = try store.save(SaveRequest(inserted: [try tag("first")]))
        }
        try SQLiteFileTests.shell(file, "UPDATE sqlite_sequence SET seq = 9223372036854775805 WHERE name = 'Tag'")
        let store = try SQLiteFileTests.open(file)
        let last = try tag("last")
        let result = try store.save(SaveRequest(inserted: [last]))
        #expect(result.remappedIdentifiers[last.persistentIdentifier]?.primaryKey == Int64.max - 1)
        let error = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: [try tag("one too many")])) }
        #expect(error.code == .keysExhausted)
        #expect(try store.fetchCount(FetchDescriptor(entity: "Tag")) == 2)
        // Already at Int64.max (a file written by another program): the same error.
        try SQLiteFileTests.shell(file, "UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'Tag'")
        let full = try SQLiteFileTests.open(file)
        #expect(throws: StrataError.self) { try full.save(SaveRequest(inserted: [try tag("again")])) }
    }
}
