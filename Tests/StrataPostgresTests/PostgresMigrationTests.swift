import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import StrataTestSupport
import Synchronization
import Testing

/// PostgreSQL migrates in place, in one transaction under the store's write lock (issue 26): keys
/// and tables kept, and a save another connection makes meanwhile waits and is then refused, never
/// lost or applied to the wrong tables.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresMigrationTests {
    let namespace = "migration-\(UUID().uuidString)"
    static let v1 = try! Schema(entities: [
        Entity("Item") { Attribute("title", .string) },
    ], version: Schema.Version(1, 0, 0))
    static let v2 = try! Schema(entities: [
        Entity("Item") {
            Attribute("name", .string, unique: true, originalName: "title")
            Attribute("isPinned", .bool, default: false)
            Attribute("note", .string, default: "none")
        },
    ], version: Schema.Version(2, 0, 0))

    func configuration(_ schema: Schema) -> PostgresStoreConfiguration {
        PostgresStoreConfiguration(url: PostgresTestServer.url, schema: schema, namespace: namespace)
    }

    /// A connection of the test's own, outside every store.
    func monitor() throws -> PostgresConnection { try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!)) }

    /// The OID of the store's `Item` table: the same OID after a migration means the table was
    /// altered, not copied.
    func itemTable(_ connection: PostgresConnection) throws -> Int64? {
        try connection.query(
            "SELECT c.oid::int8 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = convert_from($1, 'UTF8') AND c.relname = 'Item'",
            [.text(namespace)]).integer(0, 0)
    }

    /// Three items saved at v1, the last deleted: keys 1 and 2 stored, 3 handed out once.
    func seed() throws -> PostgresStore {
        let store = try PostgresStore(configuration(Self.v1))
        let entity = Self.v1.entity(named: "Item")!
        _ = try store.save(SaveRequest(inserted: try ["Alps", "Coast", "Gone"].map { try DefaultSnapshot.inserting(entity, values: ["title": .string($0)]) }))
        let gone = try #require(try store.fetch(FetchDescriptor(entity: "Item")).first { (try? $0.value("title")) == .string("Gone") })
        _ = try store.save(SaveRequest(deleted: [gone]))
        return store
    }

    @Test("a lightweight migration alters the tables in place: same table, same keys, O(1) added columns filled by their default")
    func alterInPlace() throws {
        defer { try? PostgresStore.dropStore(configuration(Self.v1)) }
        let before = try seed()
        let keys = try before.fetch(FetchDescriptor(entity: "Item")).map(\.persistentIdentifier)
        let connection = try monitor()
        let table = try itemTable(connection)
        try PostgresStore.migrateStore(configuration(Self.v2), SchemaMigration.lightweight(from: Self.v1, to: Self.v2))
        #expect(try itemTable(connection) == table, "the table was rebuilt, not altered")
        let after = try PostgresStore(configuration(Self.v2))
        #expect(after.identifier == before.identifier)
        let items = try after.fetch(FetchDescriptor(entity: "Item"))
        #expect(items.map(\.persistentIdentifier) == keys)
        #expect(try items.map { try $0.value("name") } == [.string("Alps"), .string("Coast")])
        #expect(try items.map { try $0.value("isPinned") } == [.bool(false), .bool(false)])
        #expect(try items.map { try $0.value("note") } == [.string("none"), .string("none")])
        // The deleted key 3 is never handed out again.
        let next = try after.save(SaveRequest(inserted: [try DefaultSnapshot.inserting(Self.v2.entity(named: "Item")!, values: ["name": "New"])]))
        #expect(next.remappedIdentifiers.permanentIdentifiers.map(\.primaryKey) == [4])
        #expect(try PostgresStore.recordedSchema(configuration(Self.v2))?.version == Schema.Version(2, 0, 0))
    }

    /// Runs `other` on a thread of its own while a v1 → v2 migration is paused inside its
    /// transaction (holding the store's lock), lets the migration go on once `other` is seen
    /// waiting on that lock (observed in `pg_locks`, not timed), and returns what `other` returned.
    func duringMigration<T: Sendable>(_ other: @escaping @Sendable () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result<T, any Error> {
        let migration = try SchemaMigration.lightweight(from: Self.v1, to: Self.v2)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let destination = configuration(Self.v2)
        let migrator = PausedMigration { pause in
            try PostgresStore.migrateStore(destination, from: Self.v1, to: Self.v2) { state in
                pause()
                return try state.migrated(by: migration)
            }
        }
        let thread = Thread {
            defer { done.signal() }
            let result = Result { try other() }
            outcome.withLock { $0 = result }
        }
        thread.start()
        let connection = try monitor()
        var waiting = false
        for _ in 0..<200_000 where !waiting {
            waiting = try connection.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").integer(0, 0) ?? 0 > 0
        }
        #expect(waiting, "the other connection never waited on the migration's lock", sourceLocation: sourceLocation)
        migrator.release()
        done.wait()
        let migrating = migrator.finish()
        #expect(migrating == nil, "\(String(describing: migrating))", sourceLocation: sourceLocation)
        return try #require(outcome.withLock { $0 }, sourceLocation: sourceLocation)
    }

    @Test("a save on a second connection during a migration waits for it and is refused with schemaMismatch naming both versions; nothing is lost")
    func saveDuringMigration() throws {
        defer { try? PostgresStore.dropStore(configuration(Self.v1)) }
        let stale = try seed()
        let keys = try stale.fetch(FetchDescriptor(entity: "Item")).map(\.persistentIdentifier)
        let outcome = try duringMigration {
            let late = try DefaultSnapshot.inserting(Self.v1.entity(named: "Item")!, values: ["title": "Late"])
            return try stale.save(SaveRequest(inserted: [late])).remappedIdentifiers.count
        }
        guard case .failure(let error) = outcome, let refusal = error as? StrataError else {
            Issue.record("the stale save was not refused: \(outcome)")
            return
        }
        #expect(refusal.code == .schemaMismatch)
        #expect(refusal.message.contains("version 2.0.0") && refusal.message.contains("version 1.0.0"), "\(refusal.message)")
        let after = try PostgresStore(configuration(Self.v2))
        let items = try after.fetch(FetchDescriptor(entity: "Item"))
        #expect(items.map(\.persistentIdentifier) == keys)
        #expect(try items.map { try $0.value("name") } == [.string("Alps"), .string("Coast")])
        // The store works at the new version, for the refused writer reopened too.
        _ = try after.save(SaveRequest(inserted: [try DefaultSnapshot.inserting(Self.v2.entity(named: "Item")!, values: ["name": "Late"])]))
        #expect(try after.fetchCount(FetchDescriptor(entity: "Item")) == 3)
    }

    @Test("a one-record update during a migration (its statement prepared before) is refused with schemaMismatch; nothing is written")
    func updateDuringMigration() throws {
        defer { try? PostgresStore.dropStore(configuration(Self.v1)) }
        let stale = try seed()
        let alps = try #require(try stale.fetch(FetchDescriptor(entity: "Item")).first)
        _ = try stale.save(SaveRequest(updated: [try alps.updating(["title": "Alps 1"])]))
        let outcome = try duringMigration {
            try stale.save(SaveRequest(updated: [try alps.updating(["title": "Alps 2"])])).changedSnapshots.count
        }
        guard case .failure(let error) = outcome, let refusal = error as? StrataError else {
            Issue.record("the stale update was not refused: \(outcome)")
            return
        }
        #expect(refusal.code == .schemaMismatch, "\(refusal)")
        let after = try PostgresStore(configuration(Self.v2))
        #expect(try after.snapshot(for: alps.persistentIdentifier)?.value("name") == .string("Alps 1"))
    }

    @Test("reading the recorded schema during a migration waits for it and reads the version it leaves")
    func recordedSchemaDuringMigration() throws {
        defer { try? PostgresStore.dropStore(configuration(Self.v1)) }
        _ = try seed()
        let v1 = configuration(Self.v1)
        let outcome = try duringMigration { try PostgresStore.recordedSchema(v1)?.version }
        #expect(try outcome.get() == Schema.Version(2, 0, 0), "the reader took the record of the version the migration left")
        var readOnly = configuration(Self.v2)
        readOnly.isReadOnly = true
        #expect(try PostgresStore(readOnly).fetchCount(FetchDescriptor(entity: "Item")) == 2)
    }

    @Test("a new unique constraint over duplicates is refused naming both records; the store stays at v1")
    func uniqueOverDuplicates() throws {
        defer { try? PostgresStore.dropStore(configuration(Self.v1)) }
        let store = try seed()
        _ = try store.save(SaveRequest(inserted: [try DefaultSnapshot.inserting(Self.v1.entity(named: "Item")!, values: ["title": "Alps"])]))
        let error = try #require(throws: StrataError.self) {
            try PostgresStore.migrateStore(configuration(Self.v2), SchemaMigration.lightweight(from: Self.v1, to: Self.v2))
        }
        #expect(error.code == .uniqueConstraintViolation)
        #expect(error.message.contains("Item"), "\(error.message)")
        #expect(try PostgresStore.recordedSchema(configuration(Self.v1))?.version == Schema.Version(1, 0, 0))
        #expect(try PostgresStore(configuration(Self.v1)).fetchCount(FetchDescriptor(entity: "Item")) == 3)
    }
}
