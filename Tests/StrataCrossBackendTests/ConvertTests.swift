import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance
import StrataMemory
import Testing

/// `strata convert` (`StoreConversion`, `StoreCopy`) over every pair of built-in backends
/// (PostgreSQL too when `make test` names its server: 7 × 6): the fixture store and a random store
/// of the differential schema come out equal, as `strata dump` prints them; bad input is refused
/// before anything exists at the destination.
struct ConvertTests {
    /// Every built-in backend, the server ones when a server is named.
    static var backends: [BuiltinStore] { BuiltinStores.referenceFirstWithServers }
    /// Every built-in backend as a source; each test converts it into every other one.
    static let sources = backends.map(\.name)

    static func folder(_ label: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("strata-convert-\(label)-\(UUID().uuidString)")
    }

    /// The dump of the store of `backend` in `dir`, read at the schema it records.
    static func dump(_ backend: BuiltinStore, _ dir: URL) throws -> String {
        try dump(backend.factory, dir)
    }

    private static func dump<F: BuiltinStoreFactory>(_ factory: F, _ dir: URL) throws -> String {
        var configuration = factory.stores.configuration(dir, FixtureDomain.schema)
        configuration.isReadOnly = true
        configuration.schema = try #require(try F.Store.recordedSchema(configuration)?.schema)
        return try StoreDump.json(try F.Store(configuration))
    }

    static func write<F: BuiltinStoreFactory>(_ factory: F, _ dir: URL, _ schema: Schema, _ body: (F.Store) throws -> Void) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try body(try F.Store(factory.stores.configuration(dir, schema)))
    }

    static func destroy(_ backend: BuiltinStore, _ dirs: URL...) {
        for dir in dirs { destroy(backend.factory, dir) }
    }

    private static func destroy<F: BuiltinStoreFactory>(_ factory: F, _ dir: URL) { factory.stores.destroy(dir) }

    @Test(arguments: sources) func fixtureStoreConvertsToEveryBackend(from name: String) throws {
        let from = try #require(BuiltinStores.named(name))
        let source = Self.folder("fixture-\(name)")
        defer { Self.destroy(from, source) }
        try Self.write(from.factory, source, FixtureDomain.schema) { _ = try FixtureDomain.writeSample(into: $0) }
        let expected = try Self.dump(from, source)
        for to in Self.backends where to.name != name {
            let destination = Self.folder("fixture-\(name)-to-\(to.name)")
            defer { Self.destroy(to, destination) }
            let report = try StoreConversion.convert(from: from, source, to: to, destination, options: .init(batchSize: 3))
            #expect(report.verified && report.keyMap.keepsKeys, "\(name) → \(to.name)")
            #expect(report.records > 20)
            #expect(try Self.dump(to, destination) == expected, "\(name) → \(to.name): the dumps differ")
        }
    }

    @Test(arguments: sources) func randomStoreConvertsToEveryBackend(from name: String) throws {
        let from = try #require(BuiltinStores.named(name))
        let dense = Self.folder("random-dense-\(name)"), gapped = Self.folder("random-gapped-\(name)")
        defer { Self.destroy(from, dense, gapped) }
        try Self.write(from.factory, dense, DifferentialSchema.schema) { try RandomStore.write(into: $0, records: 800, seed: 7, deleteEvery: 0, batch: 400) }
        var written = RandomStore.Written(records: 0, deleted: 0)
        try Self.write(from.factory, gapped, DifferentialSchema.schema) { written = try RandomStore.write(into: $0, records: 800, seed: 8, deleteEvery: 10, batch: 400) }
        #expect(written.deleted > 20)
        let expected = try Self.dump(from, dense), expectedGapped = try Self.dump(from, gapped)
        for to in Self.backends where to.name != name {
            let copy = Self.folder("random-\(name)-to-\(to.name)"), gappedCopy = Self.folder("random-gapped-\(name)-to-\(to.name)")
            defer { Self.destroy(to, copy, gappedCopy) }
            let report = try StoreConversion.convert(from: from, dense, to: to, copy, options: .init(batchSize: 250))
            #expect(report.records == 800 && report.keyMap.keepsKeys, "\(name) → \(to.name)")
            #expect(try Self.dump(to, copy) == expected, "\(name) → \(to.name): the dumps differ")
            // With gaps too every key is kept (every built-in backend has `chosenKeys`): the dumps are
            // equal, identifiers included, and no key map is written.
            let gappedReport = try StoreConversion.convert(from: from, gapped, to: to, gappedCopy, options: .init(batchSize: 250))
            #expect(gappedReport.verified && gappedReport.records == written.records && gappedReport.keyMap.keepsKeys, "\(name) → \(to.name)")
            #expect(try Self.dump(to, gappedCopy) == expectedGapped, "\(name) → \(to.name): the dumps of the store with gaps differ")
            #expect(!FileManager.default.fileExists(atPath: gappedCopy.appendingPathComponent(StoreConversion.keyMapFile).path))
        }
    }

    /// A PostgreSQL store named by a `postgresql://…#namespace` URL, as a destination and as a
    /// source; a destination namespace that exists is refused and left as it was.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STRATA_POSTGRES_TCP_URL"] != nil, "no PostgreSQL test server: run `make test`"))
    func postgresByURLAndExistingNamespaceRefused() throws {
        let server = try #require(ProcessInfo.processInfo.environment["STRATA_POSTGRES_TCP_URL"])
        let sqlite = try #require(BuiltinStores.named("sqlite")), postgres = try #require(BuiltinStores.named("postgres")), json = try #require(BuiltinStores.named("json"))
        let namespace = "convert_url_\(UInt32.random(in: 0...UInt32.max))"
        let store = try #require(URL(string: server + "#" + namespace)), source = Self.folder("url-source"), back = Self.folder("url-back")
        defer { Self.destroy(sqlite, source); Self.destroy(postgres, store); Self.destroy(json, back) }
        try Self.write(sqlite.factory, source, FixtureDomain.schema) { _ = try FixtureDomain.writeSample(into: $0) }
        let expected = try Self.dump(sqlite, source)
        #expect(try StoreConversion.convert(from: sqlite, source, to: postgres, store).verified)
        #expect(PostgresServer.configuration(store, schema: FixtureDomain.schema).namespace == namespace)
        #expect(try Self.dump(postgres, store) == expected)
        let exists = #expect(throws: StrataError.self) { try StoreConversion.convert(from: sqlite, source, to: postgres, store) }
        #expect(exists?.code == .ioFailure && exists?.message.contains(namespace) == true, "\(String(describing: exists))")
        #expect(try Self.dump(postgres, store) == expected, "the existing store is left as it was")
        #expect(try StoreConversion.convert(from: postgres, store, to: json, back).verified)
        #expect(try Self.dump(json, back) == expected)
    }

    /// Key counters continue after the highest copied key in every destination: a save after the
    /// convert gets a key above every key the copy holds, also when the source's keys had gaps.
    @Test(arguments: sources) func saveAfterConvertGetsAKeyAboveEveryCopiedKey(to name: String) throws {
        let sqlite = try #require(BuiltinStores.named("sqlite")), to = try #require(BuiltinStores.named(name))
        let source = Self.folder("counter-source"), destination = Self.folder("counter-\(name)")
        defer { Self.destroy(sqlite, source); Self.destroy(to, destination) }
        try Self.write(sqlite.factory, source, FixtureDomain.schema) { try Self.writeGappedReadings($0) }
        let report = try StoreConversion.convert(from: sqlite, source, to: to, destination, options: .init(batchSize: 4))
        #expect(report.verified && report.records == 8)
        try Self.insertOneReading(to.factory, destination)
    }

    /// Thirty readings, then gaps, the highest keys gone too: keys 3, 6, …, 24 are left.
    private static func writeGappedReadings<S: DataStore>(_ store: S) throws {
        let reading = try #require(FixtureDomain.schema.entity(named: "Reading"))
        _ = try store.save(SaveRequest(inserted: try (1...30).map { try S.Snapshot.inserting(reading, values: ["value": .double(Double($0))]) }))
        _ = try store.save(SaveRequest(deleted: try store.fetch(FetchDescriptor(entity: "Reading")).filter { $0.persistentIdentifier.primaryKey % 3 != 0 || $0.persistentIdentifier.primaryKey > 24 }))
    }

    /// Inserts one `Reading` into the store at `dir` and checks its key is above every other.
    private static func insertOneReading<F: BuiltinStoreFactory>(_ factory: F, _ dir: URL) throws {
        let store = try F.Store(factory.stores.configuration(dir, FixtureDomain.schema))
        let copied = try store.fetchIdentifiers(FetchDescriptor(entity: "Reading")).map(\.primaryKey)
        let reading = try #require(FixtureDomain.schema.entity(named: "Reading"))
        let saved = try store.save(SaveRequest(inserted: [try F.Store.Snapshot.inserting(reading, values: ["value": .double(1_000)])]))
        let key = try #require(saved.remappedIdentifiers.permanentIdentifiers.first?.primaryKey)
        #expect(copied.count == 8 && key > copied.max()!, "\(F.Store.self): the new record got key \(key), copied keys \(copied)")
    }

    @Test func keyMapFindsKeysAcrossRuns() {
        var map = StoreKeyMap()
        for (source, destination) in [(1, 1), (2, 2), (4, 3), (5, 4), (9, 5)] as [(Int64, Int64)] { map.append("Note", source: source, destination: destination) }
        #expect(map.runs["Note"]?.count == 3)
        #expect([1, 2, 3, 4, 5, 8, 9, 10].map { map.destinationKey("Note", $0) } == [1, 2, nil, 3, 4, nil, 5, nil])
        #expect(!map.keepsKeys && map.renumberedEntities == ["Note"])
        #expect(map.csv == "entity,source,destination,count\nNote,1,1,2\nNote,4,3,2\nNote,9,5,1\n")
    }

    @Test func verificationFindsADifference() throws {
        let name = "convert-verify-\(UUID().uuidString)"
        defer { MemoryStore.destroy(name: name); MemoryStore.destroy(name: name + "-copy") }
        let source = try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.schema))
        _ = try FixtureDomain.writeSample(into: source)
        let copy = try MemoryStore(MemoryStoreConfiguration(name: name + "-copy", schema: FixtureDomain.schema))
        let report = try StoreCopy.copy(from: source, to: copy)
        #expect(report.verified)
        // Change one value in the copy: the verification must name it.
        let library = try #require(try copy.fetch(FetchDescriptor(entity: "Library")).first)
        _ = try copy.save(SaveRequest(updated: [try library.updating(["city": .string("elsewhere")])]))
        let error = #expect(throws: StrataError.self) { try StoreCopy.verify(source, copy, keyMap: report.keyMap) }
        #expect(error?.code == .corruptStore && error?.entity == "Library")
    }

    /// An entity whose keys are sparse (six records left of sixty) is read from its listed keys
    /// rather than by key ranges; the copy keeps its keys (one save per run of keys).
    @Test func sparseKeysAreListedAndMapped() throws {
        let name = "convert-sparse-\(UUID().uuidString)"
        defer { MemoryStore.destroy(name: name); MemoryStore.destroy(name: name + "-copy") }
        let source = try MemoryStore(MemoryStoreConfiguration(name: name, schema: FixtureDomain.schema))
        let reading = try #require(FixtureDomain.schema.entity(named: "Reading"))
        let saved = try source.save(SaveRequest(inserted: try (1...60).map { try DefaultSnapshot.inserting(reading, values: ["value": .double(Double($0))]) }))
        let doomed = try source.fetch(FetchDescriptor(entity: "Reading")).filter { $0.persistentIdentifier.primaryKey % 10 != 0 }
        #expect(saved.remappedIdentifiers.count == 60 && doomed.count == 54)
        _ = try source.save(SaveRequest(deleted: doomed))
        let copy = try MemoryStore(MemoryStoreConfiguration(name: name + "-copy", schema: FixtureDomain.schema))
        let report = try StoreCopy.copy(from: source, to: copy, options: .init(batchSize: 4))
        #expect(report.verified && report.records == 6)
        #expect(report.keyMap.keepsKeys && (1...6).map { report.keyMap.destinationKey("Reading", Int64($0 * 10)) } == [10, 20, 30, 40, 50, 60])
        #expect(try copy.fetch(FetchDescriptor(entity: "Reading")).map { $0.attributeValue(at: 0) } == (1...6).map { .double(Double($0 * 10)) })
        #expect(try copy.fetchIdentifiers(FetchDescriptor(entity: "Reading")).map(\.primaryKey) == [10, 20, 30, 40, 50, 60])
    }

    @Test func existingDestinationAndMissingSourceAreRefused() throws {
        let sqlite = try #require(BuiltinStores.named("sqlite")), lmdb = try #require(BuiltinStores.named("lmdb"))
        let source = Self.folder("refuse-source"), destination = Self.folder("refuse-destination")
        defer { Self.destroy(sqlite, source); Self.destroy(lmdb, destination) }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        let missing = #expect(throws: StrataError.self) { try StoreConversion.convert(from: sqlite, source, to: lmdb, destination.appendingPathComponent("new")) }
        #expect(missing?.code == .ioFailure)
        try Self.write(sqlite.factory, source, FixtureDomain.schema) { _ = try FixtureDomain.writeSample(into: $0) }
        let exists = #expect(throws: StrataError.self) { try StoreConversion.convert(from: sqlite, source, to: lmdb, destination) }
        #expect(exists?.code == .ioFailure)
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path).isEmpty, "nothing written into the existing destination")
    }

    /// A copy that fails halfway (a required to-one left dangling by a `noAction` delete cannot be
    /// saved anywhere) leaves nothing at the destination and no staging folder.
    @Test func failedCopyLeavesNothing() throws {
        let schema = try Schema(entities: [
            Entity("Owner") {
                Attribute("name", .string)
                Relationship.toMany("pets", "Pet", inverse: "owner", deleteRule: .noAction)
            },
            Entity("Pet") {
                Attribute("name", .string)
                Relationship.toOne("owner", "Owner", inverse: "pets", optional: false, deleteRule: .noAction)
            },
        ])
        let sqlite = try #require(BuiltinStores.named("sqlite")), json = try #require(BuiltinStores.named("json"))
        let source = Self.folder("dangling-source"), parent = Self.folder("dangling-parent")
        let destination = parent.appendingPathComponent("copy")
        defer { Self.destroy(sqlite, source); Self.destroy(json, parent) }
        try Self.write(BuiltinStores.sqlite, source, schema) { try Self.writeDangling($0, schema) }
        let error = #expect(throws: StrataError.self) { try StoreConversion.convert(from: sqlite, source, to: json, destination, options: .init(batchSize: 2)) }
        #expect(error?.code == .invalidRequest && error?.entity == "Pet")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty, "no destination and no staging folder left")
    }

    /// Two owners with pets, then one owner deleted: its pets' required to-one dangles (`noAction`).
    private static func writeDangling<S: DataStore>(_ store: S, _ schema: Schema) throws {
        let owners = try ["a", "b"].map { try S.Snapshot.inserting(schema.entity(named: "Owner")!, values: ["name": .string($0)]) }
        let pets = try (0..<5).map { n in
            try S.Snapshot.inserting(schema.entity(named: "Pet")!, values: ["name": .string("pet \(n)")], relationships: ["owner": .toOne(owners[n % 2].persistentIdentifier)])
        }
        let saved = try store.save(SaveRequest(inserted: owners + pets))
        let b = try #require(saved.remappedIdentifiers[owners[1].persistentIdentifier])
        _ = try store.save(SaveRequest(deleted: [try #require(try store.snapshot(for: b))]))
    }

    @Test func requiredCycleIsRefusedBeforeWriting() throws {
        let schema = try Schema(entities: [
            Entity("Egg") { Relationship.toOne("hen", "Hen", inverse: "egg", optional: false) },
            Entity("Hen") { Relationship.toOne("egg", "Egg", inverse: "hen", optional: false) },
        ])
        let error = #expect(throws: StrataError.self) { try StoreCopy.order(of: schema) }
        #expect(error?.code == .unsupported)
        #expect(try StoreCopy.order(of: FixtureDomain.schema).firstIndex(of: 0)! < StoreCopy.order(of: FixtureDomain.schema).firstIndex(of: 1)!)
    }
}
