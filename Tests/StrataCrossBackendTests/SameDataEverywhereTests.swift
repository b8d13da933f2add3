import Foundation
import Strata
import StrataCSV
import StrataConformance
import StrataJSON
import StrataMemory
import StrataSQLite
import Testing

/// Every backend stores the fixture sample and gives back the same canonical dump, byte for byte,
/// also after reopen: the promise that a store can move between backends without a difference.
struct SameDataEverywhereTests {
    static func dump<Store: DataStore>(_ make: (URL) throws -> Store) throws -> (String, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cross-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let first: String
        do {
            let store = try make(dir)
            try FixtureDomain.writeSample(into: store)
            first = try StoreDump.json(store)
        }
        return (first, try StoreDump.json(try make(dir)))
    }

    @Test func everyBackendDumpsTheSampleIdentically() throws {
        let schema = FixtureDomain.schema
        let memory = try Self.dump { try MemoryStore(MemoryStoreConfiguration(name: $0.path, schema: schema)) }
        let sqlite = try Self.dump { try SQLiteStore(SQLiteStoreConfiguration(url: $0.appendingPathComponent("s.sqlite"), schema: schema)) }
        let json = try Self.dump { try JSONStore(JSONStoreConfiguration(url: $0.appendingPathComponent("s.json"), schema: schema, lockWait: .seconds(5))) }
        let csv = try Self.dump { try CSVStore(CSVStoreConfiguration(folder: $0.appendingPathComponent("s"), schema: schema, lockWait: .seconds(5))) }
        #expect(memory.0 == memory.1)
        for (name, pair) in [("sqlite", sqlite), ("json", json), ("csv", csv)] {
            #expect(pair.0 == memory.0, "\(name) differs from memory")
            #expect(pair.1 == memory.0, "\(name) differs from memory after reopen")
        }
    }
}

