import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLite
import Testing

/// The shared SQL save deletes a set at a time (docs/formats/sqlite.md, "What a delete runs"): rows
/// all found through one cascade go by their parents' keys, others by their own. A save that mixes
/// both must delete exactly its victims.
struct SQLiteSetDeleteTests {
    static let schema = try! Schema {
        Entity("Owner") {
            Attribute("name", .string)
            Relationship.toMany("items", "Item", inverse: "owner", ordered: true, deleteRule: .cascade)
        }
        Entity("Item") {
            Attribute("name", .string, unique: true)
            Relationship.toOne("owner", "Owner", inverse: "items")
        }
    }

    /// Two owners of three items each; the stored owners and items (by name).
    func fill(_ store: SQLiteStore) throws -> [String: PersistentIdentifier] {
        let owner = Self.schema.entity(named: "Owner")!, item = Self.schema.entity(named: "Item")!
        var inserted: [SQLiteSnapshot] = []
        for o in ["a", "b"] {
            let items = try (0..<3).map { try SQLiteSnapshot.inserting(item, values: ["name": .string("\(o)\($0)")]) }
            inserted.append(try SQLiteSnapshot.inserting(owner, values: ["name": .string(o)], relationships: ["items": .toMany(items.map { $0.persistentIdentifier })]))
            inserted += items
        }
        let remap = try store.save(SaveRequest(inserted: inserted)).remappedIdentifiers
        var ids: [String: PersistentIdentifier] = [:]
        for snapshot in inserted {
            guard case .string(let name) = try snapshot.value("name") else { continue }
            ids[name] = remap[snapshot.persistentIdentifier]!
        }
        return ids
    }

    func snapshots(_ store: SQLiteStore, _ ids: [PersistentIdentifier], _ entity: String) throws -> [SQLiteSnapshot] {
        try store.fetch(FetchDescriptor(entity: entity, predicate: .identifierIn(ids)))
    }

    @Test("an owner, one of its items and another owner's item deleted together: exactly those and the cascade go")
    func mixedVictims() throws {
        try withFilledStore { store, file, ids in
            let owners = try snapshots(store, [ids["a"]!], "Owner")
            let items = try snapshots(store, [ids["a1"]!, ids["b1"]!], "Item")
            let result = try store.save(SaveRequest(deleted: items + owners))
            #expect(result.deletedIdentifiers == Set(["a", "a0", "a1", "a2", "b1"].map { ids[$0]! }))
            #expect(result.changedSnapshots.keys.contains(ids["b"]!), "b lost b1")
            #expect(try store.fetchCount(FetchDescriptor(entity: "Item")) == 2)
            #expect(try store.snapshot(for: ids["b"]!)?.relationshipValues[0].targets == [ids["b0"]!, ids["b2"]!])
            #expect(try SQLiteFileTests.shell(file, "PRAGMA foreign_key_check") == "")
        }
    }

    @Test("an owner deleted alone takes its items by their owner column, and no other row")
    func byParents() throws {
        try withFilledStore { store, file, ids in
            let result = try store.save(SaveRequest(deleted: try snapshots(store, [ids["b"]!], "Owner")))
            #expect(result.deletedIdentifiers == Set(["b", "b0", "b1", "b2"].map { ids[$0]! }))
            #expect(result.changedSnapshots.isEmpty)
            #expect(try store.snapshot(for: ids["a"]!)?.relationshipValues[0].targets == ["a0", "a1", "a2"].map { ids[$0]! })
            #expect(try store.fetchCount(FetchDescriptor(entity: "Item")) == 3)
            #expect(try SQLiteFileTests.shell(file, "PRAGMA foreign_key_check") == "")
        }
    }

    /// Runs `body` on a new store in a temporary folder, filled by `fill`.
    func withFilledStore(_ body: (SQLiteStore, URL, [String: PersistentIdentifier]) throws -> Void) throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("deletes.sqlite")
        let store = try SQLiteFileTests.open(file, schema: Self.schema)
        try body(store, file, try fill(store))
    }
}
