import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataCSV
@_spi(StrataEngine) import StrataJSON
@_spi(StrataEngine) import StrataLMDB
@_spi(StrataEngine) import StrataMemory
@_spi(StrataEngine) import StrataPostgres
@_spi(StrataEngine) import StrataSQLite
@_spi(StrataEngine) import StrataXML
import StrataBuiltinBackends
import StrataTestSupport
import Synchronization
import Testing

/// Another opener while a migration runs (issue 26, "many processes"): on the backends that take a
/// whole migration in one atomic step (`StateMigratable`), a store opened by another thread during
/// the migration reads the whole old version or is refused, and its save waits for the migration
/// and is then refused; it never reads or writes a half-migrated store.
struct MigrationConcurrencyTests {
    /// The outcome of the other opener: the records it read, or its errors.
    private struct Other: Sendable {
        var read: Int?
        var openError: StrataError.Code?
        var saveError: StrataError.Code?
        var saved = false
    }

    /// Migrates v1 (two trips) to v2 with a pause inside the migration's atomic step: the other
    /// opener starts once the migration is observed to be inside it, and the migration finishes
    /// without waiting for the other opener (which may be blocked on the store's lock).
    static func openDuringMigration<Configuration: DataStoreConfiguration>(_ name: String, _ make: (Schema) -> Configuration) throws where Configuration.Store: StateMigratable {
        typealias Store = Configuration.Store
        let v1 = SchemaRecordTests.v1, v2 = SchemaRecordTests.v2
        do {
            let store = try Store(make(v1))
            let trips = try ["Alps", "Coast"].map { try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": .string($0)]) }
            _ = try store.save(SaveRequest(inserted: trips))
        }
        let migration = try SchemaMigration.lightweight(from: v1, to: v2)
        let otherDone = DispatchSemaphore(value: 0)
        let old = make(v1), new = make(v2)
        let outcome = Mutex(Other())
        let migrator = PausedMigration { pause in
            try Store.migrateStore(new, from: v1, to: v2) { state in
                pause()
                return try state.migrated(by: migration)
            }
        }
        let other = Thread {
            defer { otherDone.signal() }
            let store: Store
            do {
                store = try Store(old)
                let count = try store.fetchCount(FetchDescriptor(entity: "Trip"))
                outcome.withLock { $0.read = count }
            } catch {
                outcome.withLock { $0.openError = (error as? StrataError)?.code ?? .ioFailure }
                return
            }
            do {
                let trip = try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Late"])
                _ = try store.save(SaveRequest(inserted: [trip]))
                outcome.withLock { $0.saved = true }
            } catch {
                outcome.withLock { $0.saveError = (error as? StrataError)?.code ?? .ioFailure }
            }
        }
        other.start()
        migrator.release()
        otherDone.wait()
        let migrating = migrator.finish()
        #expect(migrating == nil, "\(name): \(String(describing: migrating))")
        let seen = outcome.withLock { $0 }
        let refusals: Set<StrataError.Code> = [.schemaMismatch, .storeLocked]
        if let code = seen.openError {
            #expect(refusals.contains(code), "\(name): the open failed with \(code)")
        } else {
            #expect(seen.read == 2, "\(name): the other opener read \(String(describing: seen.read)) trips: not the whole old version")
            #expect(!seen.saved, "\(name): a save at the old schema landed in the migrated store")
            #expect(seen.saveError.map(refusals.contains) == true, "\(name): the save failed with \(String(describing: seen.saveError))")
        }
        let after = try Store(new)
        #expect(try after.fetch(FetchDescriptor(entity: "Trip")).map { try $0.value("name") } == [.string("Alps"), .string("Coast")], "\(name)")
        #expect(try Store.recordedSchema(new)?.version == Schema.Version(2, 0, 0), "\(name)")
    }

    /// A store opened at v1 before the store was migrated (by another store of this process) is
    /// refused on its next save, and the migrated store stays as the migration left it.
    static func staleWriterRefused<Configuration: DataStoreConfiguration>(_ name: String, _ make: (Schema) -> Configuration) throws {
        typealias Store = Configuration.Store
        let v1 = SchemaRecordTests.v1, v2 = SchemaRecordTests.v2
        let stale = try Store(make(v1))
        _ = try stale.save(SaveRequest(inserted: [try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Alps"])]))
        try Store.migrateStore(make(v2), SchemaMigration.lightweight(from: v1, to: v2))
        let late = try Store.Snapshot.inserting(v1.entity(named: "Trip")!, values: ["title": "Late"])
        let error = try #require(throws: StrataError.self, "\(name)") { _ = try stale.save(SaveRequest(inserted: [late])) }
        #expect(error.code == .schemaMismatch, "\(name): \(error)")
        #expect(error.message.contains("2.0.0") && error.message.contains("1.0.0"), "\(name): the refusal does not name both versions: \(error.message)")
        let after = try Store(make(v2))
        #expect(try after.fetch(FetchDescriptor(entity: "Trip")).map { try $0.value("name") } == [.string("Alps")], "\(name)")
    }

    /// The backends whose stores another store or process can migrate: the file backends, and
    /// PostgreSQL when a server is named (`make test` names one).
    static let shared = ["json", "csv", "xml", "lmdb", "sqlite"] + (PostgresServer.url == nil ? [] : ["postgres"])

    /// A PostgreSQL store "in" `dir` (its own namespace), dropped by `dropping`.
    static func postgres(_ dir: URL, _ schema: Schema) -> PostgresStoreConfiguration {
        PostgresStoreConfiguration(url: PostgresServer.url, schema: schema, namespace: PostgresServer.namespace(for: dir))
    }

    @Test(arguments: shared)
    func aStoreOpenedBeforeAMigrationIsRefusedOnSave(backend: String) throws {
        try SchemaRecordTests.each { _, dir in
            defer { if backend == "postgres" { try? PostgresStore.dropStore(Self.postgres(dir, SchemaRecordTests.v1)) } }
            switch backend {
            case "sqlite": try Self.staleWriterRefused(backend) { SQLiteStoreConfiguration(url: dir.appendingPathComponent("s.sqlite"), schema: $0) }
            case "postgres": try Self.staleWriterRefused(backend) { Self.postgres(dir, $0) }
            case "json": try Self.staleWriterRefused(backend) { JSONStoreConfiguration(url: dir.appendingPathComponent("s.json"), schema: $0) }
            case "csv": try Self.staleWriterRefused(backend) { CSVStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            case "xml": try Self.staleWriterRefused(backend) { XMLStoreConfiguration(url: dir.appendingPathComponent("s.xml"), schema: $0) }
            default: try Self.staleWriterRefused(backend) { LMDBStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            }
        }
    }

    @Test(arguments: ["memory"] + shared)
    func anotherOpenerDuringAMigrationNeverSeesHalfAStore(backend: String) throws {
        try SchemaRecordTests.each { name, dir in
            defer { MemoryStore.destroy(name: name) }
            defer { if backend == "postgres" { try? PostgresStore.dropStore(Self.postgres(dir, SchemaRecordTests.v1)) } }
            switch backend {
            case "sqlite": try Self.openDuringMigration(backend) { SQLiteStoreConfiguration(url: dir.appendingPathComponent("s.sqlite"), schema: $0) }
            case "postgres": try Self.openDuringMigration(backend) { Self.postgres(dir, $0) }
            case "memory": try Self.openDuringMigration(backend) { MemoryStoreConfiguration(name: name, schema: $0) }
            case "json": try Self.openDuringMigration(backend) { JSONStoreConfiguration(url: dir.appendingPathComponent("s.json"), schema: $0) }
            case "csv": try Self.openDuringMigration(backend) { CSVStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            case "xml": try Self.openDuringMigration(backend) { XMLStoreConfiguration(url: dir.appendingPathComponent("s.xml"), schema: $0) }
            default: try Self.openDuringMigration(backend) { LMDBStoreConfiguration(folder: dir.appendingPathComponent("s"), schema: $0) }
            }
        }
    }
}
