import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance
import Testing

/// Every backend's read-only mode: it reads what a writer saved (with the writer still open), its
/// saves fail with `readOnlyStore`, and opening a location that holds no store creates nothing.
struct ReadOnlyTests {
    static func check<Factory: BuiltinStoreFactory>(_ name: String, _ factory: Factory) throws {
        typealias Store = Factory.Store
        typealias Configuration = Store.Configuration
        let make = { factory.stores.configuration($0, FixtureDomain.schema) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer {
            factory.stores.destroy(dir)
            try? FileManager.default.removeItem(at: dir)
        }
        func readOnly(_ location: URL) -> Configuration {
            var configuration = make(location)
            configuration.isReadOnly = true
            return configuration
        }
        let empty = dir.appendingPathComponent("empty")
        #expect(throws: StrataError.self, "\(name): a read-only open of nothing") { try Store(readOnly(empty)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(name) created a file")
        let writer = try Store(make(dir))
        let ids = try FixtureDomain.writeSample(into: writer)
        let reader = try Store(readOnly(dir))
        #expect(reader.identifier == writer.identifier, "\(name)")
        #expect(try reader.fetchCount(FetchDescriptor(entity: "Book")) == 3, "\(name)")
        let tag = try Store.Snapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "read-only"])
        let error = try #require(throws: StrataError.self, "\(name)") { try reader.save(SaveRequest(inserted: [tag])) }
        #expect(error.code == .readOnlyStore, "\(name): \(error)")
        #expect(try reader.fetchCount(FetchDescriptor(entity: "Tag")) == ids.filter { $0.entityName == "Tag" }.count, "\(name)")
    }

    @Test(arguments: BuiltinStores.all) func everyBackendHasAReadOnlyMode(_ backend: BuiltinStore) throws {
        try Self.check(backend.name, backend.factory)
    }
}
