import Foundation
import Strata
import StrataCSV
import StrataConformance
import StrataJSON
import StrataMemory
import StrataSQLite
import Testing

/// Every backend's read-only mode: it reads what a writer saved (with the writer still open), its
/// saves fail with `readOnlyStore`, and opening a location that holds no store creates nothing.
struct ReadOnlyTests {
    static func check<Configuration: DataStoreConfiguration>(_ name: String, _ make: @escaping (URL) -> Configuration) throws {
        typealias Store = Configuration.Store
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: dir)
            MemoryStore.destroy(name: dir.path)
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

    @Test func everyBackendHasAReadOnlyMode() throws {
        let schema = FixtureDomain.schema
        try Self.check("memory") { MemoryStoreConfiguration(name: $0.path, schema: schema) }
        try Self.check("sqlite") { SQLiteStoreConfiguration(url: $0.appendingPathComponent("s.sqlite"), schema: schema) }
        try Self.check("json") { JSONStoreConfiguration(url: $0.appendingPathComponent("s.json"), schema: schema) }
        try Self.check("csv") { CSVStoreConfiguration(folder: $0.appendingPathComponent("s"), schema: schema) }
    }
}
