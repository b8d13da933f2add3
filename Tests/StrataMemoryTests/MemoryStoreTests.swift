import Strata
import StrataConformance
import StrataMemory
import Testing

struct MemoryStoreTests {
    @Test func storesOfOneNameShareTheirData() throws {
        let name = "shared-\(UInt64.random(in: 0...UInt64.max))"
        defer { MemoryStore.destroy(name: name) }
        let a = try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.schema))
        let b = try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.schema))
        let tag = try DefaultSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "t"])
        _ = try a.save(SaveRequest(inserted: [tag]))
        #expect(try b.fetchCount(FetchDescriptor(entity: "Tag")) == 1)
        #expect(a.identifier == b.identifier)
        let duplicate = try DefaultSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "t"])
        #expect(throws: StrataError.self) { try b.save(SaveRequest(inserted: [duplicate])) }
    }

    @Test func otherSchemaIsRefused() throws {
        let name = "mismatch-\(UInt64.random(in: 0...UInt64.max))"
        defer { MemoryStore.destroy(name: name) }
        _ = try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.schema))
        let error = try #require(throws: StrataError.self) { try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.changedSchema)) }
        #expect(error.code == .schemaMismatch)
    }

    @Test func sampleAndDumpAreCanonical() throws {
        let name = "sample-\(UInt64.random(in: 0...UInt64.max))"
        defer { MemoryStore.destroy(name: name) }
        let store = try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.schema))
        let ids = try FixtureDomain.writeSample(into: store)
        let dump = try StoreDump.json(store)
        #expect(ids.count == 22)
        #expect(dump.contains("\"format\" : \"strata-dump-1\""))
        #expect(dump.contains("\"Frank Herbert\""))
        #expect(try StoreDump.json(store) == dump)
    }
}
