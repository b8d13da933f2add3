import Foundation
import Strata
import StrataConformance
import StrataSQLite
import Testing

/// The store reuses one save transaction (`SQLSaveTransaction+Reuse`): nothing one save learned
/// may reach the next, whether it committed or failed.
struct SQLiteSaveReuseTests {
    @Test func nothingOfOneSaveReachesTheNext() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let schema = WorkloadSchema.schema
        let store = try SQLiteFileTests.open(dir.appendingPathComponent("reuse.sqlite"), schema: schema)
        let ownerEntity = schema.entity(named: "Owner")!, itemEntity = schema.entity(named: "Item")!
        func owner(_ name: String) -> SQLiteSnapshot {
            SQLiteSnapshot(entity: ownerEntity, persistentIdentifier: .temporary(entity: "Owner"), attributes: [.string(name)], relationships: [.toMany([])])
        }
        func item(_ index: Int, of owner: PersistentIdentifier) -> SQLiteSnapshot {
            SQLiteSnapshot(entity: itemEntity, persistentIdentifier: .temporary(entity: "Item"), attributes: WorkloadSchema.itemValues(index), relationships: [.toOne(owner)])
        }
        let (first, second) = (owner("first"), owner("second"))
        let owners = try store.save(SaveRequest(inserted: [first, second])).remappedIdentifiers
        let a = try #require(owners[first.persistentIdentifier]), b = try #require(owners[second.persistentIdentifier])
        let x = item(1, of: a)
        let xID = try #require(try store.save(SaveRequest(inserted: [x])).remappedIdentifiers[x.persistentIdentifier])

        // A failed save that found `b`, held a unique value back and touched records.
        let clash = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: [item(1, of: b)])) }
        #expect(clash.code == .uniqueConstraintViolation)

        // `b` deleted: a save that names it again must find it gone, not remember it from the
        // failed save (SQLite's foreign key would then fail with another error).
        let stored = try #require(try store.snapshot(for: b))
        _ = try store.save(SaveRequest(deleted: [stored]))
        let dangling = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: [item(2, of: b)])) }
        #expect(dangling.code == .unknownIdentifier)

        // A plain update reports nothing beyond its request: no record touched by earlier saves.
        let current = try #require(try store.snapshot(for: xID))
        var values = current.attributeValues
        values[2] = .double(99.5)
        let update = SQLiteSnapshot(entity: itemEntity, persistentIdentifier: xID, attributes: values, relationships: current.relationshipValues)
        let result = try store.save(SaveRequest(updated: [update]))
        #expect(result.changedSnapshots.isEmpty)
        #expect(result.remappedIdentifiers.isEmpty && result.deletedIdentifiers.isEmpty)
        #expect(try store.snapshot(for: xID)?.attributeValues[2] == .double(99.5))
        #expect(try store.snapshot(for: xID)?.relationshipValues == [.toOne(a)])
        #expect(try store.fetchCount(FetchDescriptor(entity: "Item")) == 1)
    }
}
