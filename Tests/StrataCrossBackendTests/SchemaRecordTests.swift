import Foundation
import Strata
import StrataCSV
import StrataConformance
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataSQLite
import StrataXML
import Testing

/// Self-describing stores (issue 26): every backend records its schema, stores written before
/// records (the fixtures under Tests/Fixtures/LegacyStores, made by `strata sample` at cbbf895) are
/// recognised and upgraded once, and a lightweight difference migrates on `openMigrating`.
struct SchemaRecordTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/LegacyStores")

    /// The fixture schema the legacy stores were written with (cbbf895): today's without the
    /// entity `Member`, added later for relationships that are their own inverse (issue 25).
    static let legacySchema: Schema = {
        do { return try Schema(entities: FixtureDomain.entities.filter { $0.name != "Member" }) } catch { preconditionFailure("\(error)") }
    }()

    static func temporaryCopy(of backend: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-legacy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(backend), to: dir)
        return dir
    }

    /// Opens a legacy fixture: read-only first (nothing written, still legacy), then for writing
    /// (the record is added once), and checks the data is the same all along.
    static func upgrade<Configuration: DataStoreConfiguration>(_ name: String, _ make: (URL) -> Configuration) throws {
        typealias Store = Configuration.Store
        let dir = try temporaryCopy(of: name)
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = make(dir)
        let before = try #require(try Store.recordedSchema(configuration), "\(name)")
        #expect(before.fingerprint == legacySchema.fingerprint, "\(name)")
        #expect(before.version == nil, "\(name): a legacy store has no version")
        configuration.isReadOnly = true
        let dumpBefore = try StoreDump.json(try Store(configuration))
        #expect(try Store.recordedSchema(configuration)?.version == nil, "\(name): a reader never upgrades")
        configuration.isReadOnly = false
        configuration.schema.version = Schema.Version(1, 2, 0)
        let writer = try Store(configuration)
        let after = try #require(try Store.recordedSchema(configuration), "\(name)")
        #expect(!after.isLegacy && after.version == Schema.Version(1, 2, 0), "\(name): \(after)")
        #expect(after.schema?.entities.map(\.name) == legacySchema.entities.map(\.name), "\(name)")
        #expect(try StoreDump.json(writer) == dumpBefore, "\(name): the upgrade changed the data")
    }

    @Test func legacyStoresAreRecognisedAndUpgradedOnce() throws {
        try Self.upgrade("sqlite") { SQLiteStoreConfiguration(url: $0.appendingPathComponent("store.sqlite"), schema: Self.legacySchema) }
        try Self.upgrade("json") { JSONStoreConfiguration(url: $0.appendingPathComponent("store.json"), schema: Self.legacySchema) }
        try Self.upgrade("csv") { CSVStoreConfiguration(folder: $0.appendingPathComponent("store"), schema: Self.legacySchema) }
        try Self.upgrade("lmdb") { LMDBStoreConfiguration(folder: $0.appendingPathComponent("store"), schema: Self.legacySchema) }
        try Self.upgrade("xml") { XMLStoreConfiguration(url: $0.appendingPathComponent("store.xml"), schema: Self.legacySchema) }
    }

    static let v1 = try! Schema(entities: [
        Entity("Trip") {
            Attribute("title", .string)
            Relationship.toMany("stops", "Stop", inverse: "trip", deleteRule: .cascade)
        },
        Entity("Stop") {
            Attribute("name", .string)
            Relationship.toOne("trip", "Trip", inverse: "stops")
        },
    ], version: Schema.Version(1, 0, 0))

    static let v2 = try! Schema(entities: [
        Entity("Trip") {
            Attribute("name", .string, unique: true, originalName: "title")
            Attribute("isPinned", .bool, default: false)
            Relationship.toMany("stops", "Stop", inverse: "trip", deleteRule: .cascade)
        },
        Entity("Stop") {
            Attribute("name", .string)
            Relationship.toOne("trip", "Trip", inverse: "stops")
        },
    ], version: Schema.Version(2, 0, 0))

    /// v1 with two trips (and a stop), opened with v2 through `openMigrating`: renamed, added,
    /// constrained; keys kept; an old-version open is then refused naming both versions.
    static func migrateOnOpen<Configuration: DataStoreConfiguration>(_ name: String, _ make: (Schema) -> Configuration) throws {
        typealias Store = Configuration.Store
        let ids: [PersistentIdentifier]
        do {
            let store = try Store(make(v1))
            let trip = try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Alps"])
            let other = try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Coast"])
            let stop = try Store.Snapshot.inserting(v1.entity(named: "Stop")!, values: ["name": "Chamonix"], relationships: ["trip": .toOne(trip.persistentIdentifier)])
            let result = try store.save(SaveRequest(inserted: [trip, other, stop]))
            ids = [trip, other, stop].map { result.remappedIdentifiers[$0.persistentIdentifier]! }
        }
        let plain = try #require(throws: StrataError.self, "\(name)") { try Store(make(v2)) }
        #expect(plain.code == .schemaMismatch && plain.message.contains("version 1.0.0") && plain.message.contains("version 2.0.0"), "\(name): \(plain)")
        let store = try Store.openMigrating(make(v2))
        #expect(try Store.recordedSchema(make(v2))?.version == Schema.Version(2, 0, 0), "\(name)")
        let trips = try store.fetch(FetchDescriptor(entity: "Trip"))
        #expect(trips.map(\.persistentIdentifier) == Array(ids.prefix(2)), "\(name): keys kept")
        #expect(try trips.map { try $0.value("name") } == [.string("Alps"), .string("Coast")], "\(name)")
        #expect(try trips.map { try $0.value("isPinned") } == [.bool(false), .bool(false)], "\(name)")
        let stop = try #require(try store.snapshot(for: ids[2]), "\(name)")
        #expect(try stop.related("trip") == .toOne(ids[0]), "\(name)")
        let old = try #require(throws: StrataError.self, "\(name)") { try Store.openMigrating(make(v1)) }
        #expect(old.code == .schemaMismatch && old.message.contains("newer version"), "\(name): \(old)")
    }

    /// A new unique constraint over duplicates fails naming both records, and changes nothing.
    static func duplicatesRefused<Configuration: DataStoreConfiguration>(_ name: String, _ make: (Schema) -> Configuration) throws {
        typealias Store = Configuration.Store
        do {
            let store = try Store(make(v1))
            let a = try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Same"])
            let b = try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Same"])
            _ = try store.save(SaveRequest(inserted: [a, b]))
        }
        let error = try #require(throws: StrataError.self, "\(name)") { try Store.openMigrating(make(v2)) }
        #expect(error.code == .uniqueConstraintViolation && error.identifiers.count == 2 && error.entity == "Trip", "\(name): \(error)")
        #expect(try Store.recordedSchema(make(v1))?.version == Schema.Version(1, 0, 0), "\(name): the store was changed")
        #expect(try Store(make(v1)).fetchCount(FetchDescriptor(entity: "Trip")) == 2, "\(name)")
    }

    static func each(_ body: (String, URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir.path, dir)
    }

    /// Every built-in backend migrates in place (keys kept).
    @Test(arguments: ["memory", "json", "csv", "xml", "lmdb", "sqlite"])
    func aLightweightChangeMigratesOnOpen(backend: String) throws {
        try Self.each { name, dir in
            defer { MemoryStore.destroy(name: name) }
            switch backend {
            case "memory": try Self.migrateOnOpen(backend) { MemoryStoreConfiguration(name: name, schema: $0) }
            case "json": try Self.migrateOnOpen(backend) { JSONStoreConfiguration(url: dir.appendingPathComponent("s.json"), schema: $0) }
            case "csv": try Self.migrateOnOpen(backend) { CSVStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            case "xml": try Self.migrateOnOpen(backend) { XMLStoreConfiguration(url: dir.appendingPathComponent("s.xml"), schema: $0) }
            case "lmdb": try Self.migrateOnOpen(backend) { LMDBStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            default: try Self.migrateOnOpen(backend) { SQLiteStoreConfiguration(url: dir.appendingPathComponent("s.sqlite"), schema: $0) }
            }
        }
        try Self.each { name, dir in
            defer { MemoryStore.destroy(name: name) }
            switch backend {
            case "memory": try Self.duplicatesRefused(backend) { MemoryStoreConfiguration(name: name, schema: $0) }
            case "json": try Self.duplicatesRefused(backend) { JSONStoreConfiguration(url: dir.appendingPathComponent("s.json"), schema: $0) }
            case "csv": try Self.duplicatesRefused(backend) { CSVStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            case "xml": try Self.duplicatesRefused(backend) { XMLStoreConfiguration(url: dir.appendingPathComponent("s.xml"), schema: $0) }
            case "lmdb": try Self.duplicatesRefused(backend) { LMDBStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            default: try Self.duplicatesRefused(backend) { SQLiteStoreConfiguration(url: dir.appendingPathComponent("s.sqlite"), schema: $0) }
            }
        }
    }
}
