import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance
import Testing

/// Every backend stores the fixture sample and gives back the same canonical dump, byte for byte,
/// also after reopen: the promise that a store can move between backends without a difference.
struct SameDataEverywhereTests {
    static func dump<Factory: BuiltinStoreFactory>(_ factory: Factory) throws -> (String, String) {
        let stores = factory.stores
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cross-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { stores.destroy(dir) }
        func open() throws -> Factory.Store { try Factory.Store(stores.configuration(dir, FixtureDomain.schema)) }
        let first: String
        do {
            let store = try open()
            try FixtureDomain.writeSample(into: store)
            first = try StoreDump.json(store)
        }
        return (first, try StoreDump.json(try open()))
    }

    @Test func everyBackendDumpsTheSampleIdentically() throws {
        let memory = try Self.dump(BuiltinStores.memory)
        #expect(memory.0 == memory.1)
        for backend in BuiltinStores.all where backend.name != "memory" {
            let pair = try Self.dump(backend.factory)
            #expect(pair.0 == memory.0, "\(backend.name) differs from memory")
            #expect(pair.1 == memory.0, "\(backend.name) differs from memory after reopen")
        }
    }
}
