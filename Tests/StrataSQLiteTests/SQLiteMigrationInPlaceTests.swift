import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataSQLite
import Testing

/// A lightweight add-attribute on SQLite is `ALTER TABLE … ADD COLUMN` (issue 26, "Speed"): the
/// table is altered, not copied, so its cost does not grow with the store. Shown without timing:
/// the table keeps its root page, and no table's worth of pages is freed by a copy.
struct SQLiteMigrationInPlaceTests {
    static let v1 = try! Schema(entities: [
        Entity("Item") { Attribute("title", .string) },
    ], version: Schema.Version(1, 0, 0))
    static let v2 = try! Schema(entities: [
        Entity("Item") {
            Attribute("name", .string, originalName: "title")
            Attribute("isPinned", .bool, default: false)
            Attribute("note", .string, optional: true)
        },
    ], version: Schema.Version(2, 0, 0))

    /// The `Item` table's root page and the database's free page count, read on a connection of
    /// the test's own.
    static func pages(_ url: URL) throws -> (root: Int64, free: Int64) {
        let connection = try SQLiteConnection(path: url.path, create: false, readOnly: true, busyTimeout: .seconds(5))
        let root = try connection.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'Item'").rows { $0.int64(0) }
        let free = try connection.prepare("PRAGMA freelist_count").rows { $0.int64(0) }
        return (try #require(root.first), try #require(free.first))
    }

    @Test func addingAnAttributeAltersTheTableInPlace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sqlite-alter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("s.sqlite")
        let count = 5_000
        let keys: [PersistentIdentifier]
        do {
            let store = try SQLiteStore(SQLiteStoreConfiguration(url: url, schema: Self.v1))
            let entity = Self.v1.entity(named: "Item")!
            _ = try store.save(SaveRequest(inserted: try (0..<count).map { try SQLiteSnapshot.inserting(entity, values: ["title": .string("item \($0) with some text to fill pages")]) }))
            keys = try store.fetch(FetchDescriptor(entity: "Item")).map(\.persistentIdentifier)
        }
        let before = try Self.pages(url)
        try SQLiteStore.migrateStore(SQLiteStoreConfiguration(url: url, schema: Self.v2), SchemaMigration.lightweight(from: Self.v1, to: Self.v2))
        let after = try Self.pages(url)
        #expect(after.root == before.root, "the Item table was rebuilt (root page \(before.root) → \(after.root)), not altered")
        // A copy of the table would free at least the old table's pages (tens of them here).
        #expect(after.free - before.free < 5, "\(after.free - before.free) pages were freed: the table was copied")
        let store = try SQLiteStore(SQLiteStoreConfiguration(url: url, schema: Self.v2))
        let items = try store.fetch(FetchDescriptor(entity: "Item"))
        #expect(items.map(\.persistentIdentifier) == keys, "keys kept")
        #expect(try items.prefix(2).map { try $0.value("name") } == [.string("item 0 with some text to fill pages"), .string("item 1 with some text to fill pages")])
        #expect(try items.allSatisfy { try $0.value("isPinned") == .bool(false) && $0.value("note") == .null })
        #expect(try SQLiteStore.recordedSchema(SQLiteStoreConfiguration(url: url, schema: Self.v2))?.version == Schema.Version(2, 0, 0))
    }
}
