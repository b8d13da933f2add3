import Foundation
@_spi(StrataEngine) import Strata
import StrataBuiltinBackends
import StrataConformance
@_spi(StrataEngine) import StrataCSV
@_spi(StrataEngine) import StrataJSON
@_spi(StrataEngine) import StrataLMDB
@_spi(StrataEngine) import StrataPostgres
@_spi(StrataEngine) import StrataSQLite
@_spi(StrataEngine) import StrataXML
import Synchronization
import Testing

/// Another process opening a store while a migration runs (issue 26, "many processes"), with a
/// real second process: `strata crash-writer --migrate --hold-inside` migrates a
/// `MigrationWorkload` store v1 → v2 → v3 and stops inside the v2 → v3 custom stage's atomic step
/// (records loaded, writer lock held), saying `inside 3`; it goes on when this process writes a
/// line to its standard input. While it holds the store, this process reads it (the whole v2, or
/// `storeLocked`), tries to write at v2 (`storeLocked`, or it waits and is then refused with
/// `schemaMismatch`), and opens it at v3 (refused: the store is not at v3 yet). Nothing waits on
/// a timer: every step follows a line the other process wrote.
struct MigrationProcessTests {
    static let records = 40

    /// How this process opens the store (the paths `BuiltinStores` gives the tool), waiting for no lock.
    static func configuration(_ backend: String, _ dir: URL, _ schema: Schema, readOnly: Bool) -> any DataStoreConfiguration {
        switch backend {
        case "sqlite": SQLiteStoreConfiguration(url: dir.appendingPathComponent("store.sqlite"), schema: schema, busyTimeout: .zero, isReadOnly: readOnly)
        case "json": JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: nil, isReadOnly: readOnly)
        case "csv": CSVStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema, lockWait: nil, isReadOnly: readOnly)
        case "xml": XMLStoreConfiguration(url: dir.appendingPathComponent("store.xml"), schema: schema, lockWait: nil, isReadOnly: readOnly)
        case "postgres": PostgresStoreConfiguration(url: PostgresServer.url, schema: schema, namespace: PostgresServer.namespace(for: dir), isReadOnly: readOnly)
        default: LMDBStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema, isReadOnly: readOnly)
        }
    }

    /// Opens a store through a configuration of unknown type.
    static func open(_ configuration: any DataStoreConfiguration) throws -> any DataStore {
        func open<C: DataStoreConfiguration>(_ c: C) throws -> any DataStore { try C.Store(c) }
        return try open(configuration)
    }

    /// The items and groups a store holds at v2, or the error code that refused the read.
    static func readV2(_ store: any DataStore) throws -> (items: Int, flagged: Int, groups: [Value]) {
        let items = try store.fetch(FetchDescriptor(entity: "Item"))
        let groups = try store.fetch(FetchDescriptor(entity: "Group")).map { try $0.value("label") }
        let flagged = try items.filter { try $0.value("flag") == .bool(true) }.count
        return (items.count, flagged, groups.sorted { "\($0)" < "\($1)" })
    }

    /// Inserts one item at v2.
    static func insertItem(_ store: any DataStore) throws {
        func insert<S: DataStore>(_ store: S) throws {
            let item = try S.Snapshot.inserting(store.schema.requireEntity("Item"), values: ["title": "late", "value": 1])
            _ = try store.save(SaveRequest(inserted: [item]))
        }
        try insert(store)
    }

    /// Writes the workload's v1 store where the tool finds it.
    static func writeTemplate<Factory: BuiltinStoreFactory>(_ factory: Factory, in dir: URL) throws {
        try MigrationWorkload.write({ factory.stores.configuration(dir, $0) }, records: records)
    }

    /// Removes the store "in" `dir` (a PostgreSQL store's namespace; a file store's files).
    static func destroy<Factory: BuiltinStoreFactory>(_ factory: Factory, in dir: URL) {
        factory.stores.destroy(dir)
    }

    /// The workload's check of the store the tool migrated: the version it is at.
    static func check<Factory: BuiltinStoreFactory>(_ factory: Factory, in dir: URL) throws -> Int {
        try MigrationWorkload.check({ factory.stores.configuration(dir, $0) }, records: records)
    }

    /// The backends a second process can open: every file backend, and PostgreSQL when a server
    /// is named (`make test` names one; the migrating process inherits it).
    static let backends = ["sqlite", "lmdb", "json", "csv", "xml"] + (PostgresServer.url == nil ? [] : ["postgres"])

    @Test(arguments: backends)
    func anotherProcessWaitsOrIsRefusedWhileAMigrationRuns(backend: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-migration-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let entry = try #require(BuiltinStores.named(backend))
        defer {
            Self.destroy(entry.factory, in: dir)
            try? FileManager.default.removeItem(at: dir)
        }
        let v2 = MigrationWorkload.schema(2), v3 = MigrationWorkload.schema(3)
        func mine(_ schema: Schema, readOnly: Bool = false) -> any DataStoreConfiguration { Self.configuration(backend, dir, schema, readOnly: readOnly) }
        // Writers that wait for the migration's lock instead of being refused at once.
        let waits = backend == "lmdb" || backend == "postgres"
        try Self.writeTemplate(entry.factory, in: dir)

        let migrator = Process()
        migrator.executableURL = ReliabilityToolTests.strata
        migrator.arguments = ["crash-writer", "--backend", backend, "--path", dir.path, "--migrate", "--hold-inside"]
        let output = Pipe(), input = Pipe()
        migrator.standardOutput = output
        migrator.standardInput = input
        migrator.standardError = FileHandle.nullDevice
        try migrator.run()
        var said = ""
        while !said.contains("inside 3\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        try #require(said.contains("migrated 2") && said.contains("inside 3"), "\(backend): the migrating process said \(said)")

        // The other process holds the store inside its custom stage. A reader sees the whole v2.
        do {
            let seen = try Self.readV2(try Self.open(mine(v2, readOnly: true)))
            #expect(seen.items == Self.records && seen.flagged == 0, "\(backend): a reader saw \(seen.items) items, \(seen.flagged) flagged: not the whole v2")
            #expect(seen.groups == (0..<10).map { .string("group-\($0)") }.sorted { "\($0)" < "\($1)" }, "\(backend): a reader saw the groups \(seen.groups)")
        } catch let error as StrataError {
            #expect(error.code == .storeLocked, "\(backend): reading during the migration failed with \(error)")
        }
        // The store is not at v3 until the migration commits: an app at v3 is refused, whole.
        let early = #expect(throws: StrataError.self, "\(backend): opened at v3 while the migration ran") { _ = try Self.open(mine(v3, readOnly: true)) }
        #expect(early.map { [.schemaMismatch, .storeLocked].contains($0.code) } == true, "\(backend): \(String(describing: early))")
        // A writer at v2 is refused at once (it waits for no lock) or, on LMDB and PostgreSQL,
        // waits for the migration and is then refused: it never writes into the store being migrated.
        let writeOutcome = Mutex<StrataError?>(nil), wrote = Mutex(false)
        let writerDone = DispatchSemaphore(value: 0)
        let atV2 = mine(v2)
        let writer = Thread {
            defer { writerDone.signal() }
            do {
                try Self.insertItem(try Self.open(atV2))
                wrote.withLock { $0 = true }
            } catch {
                writeOutcome.withLock { $0 = error as? StrataError ?? StrataError(.ioFailure, "\(error)") }
            }
        }
        writer.start()
        if !waits { writerDone.wait() }
        input.fileHandleForWriting.write(Data("go\n".utf8))
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        migrator.waitUntilExit()
        if waits { writerDone.wait() }
        #expect(migrator.terminationStatus == 0 && said.contains("migrated 3"), "\(backend): the migration ended with \(migrator.terminationStatus), saying \(said)")
        #expect(!wrote.withLock { $0 }, "\(backend): a save at v2 landed while the store was being migrated")
        let code = writeOutcome.withLock { $0?.code }
        let expected: Set<StrataError.Code> = waits ? [.storeLocked, .schemaMismatch] : [.storeLocked]
        #expect(code.map(expected.contains) == true, "\(backend): the writer at v2 ended with \(String(describing: writeOutcome.withLock { $0 }))")

        // Afterwards the store is at v3 with both halves of the custom stage and every record.
        let version = try Self.check(entry.factory, in: dir)
        #expect(version == 3, "\(backend)")
    }
}
