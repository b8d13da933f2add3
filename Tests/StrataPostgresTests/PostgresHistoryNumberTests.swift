import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Synchronization
import Testing

/// How PostgreSQL numbers history transactions (`PostgresHistory`): under the store's write lock,
/// from the counter `history_last`, with `history_horizon` at the newest number deleted — for both
/// writers of a transaction, the shared save and the one-record update that records in its own
/// statement. The rules every backend keeps — two instances never share a number, none is reused
/// after `deleteHistory`, a failed save takes none — are suite cases
/// (`history.two-writers-number-apart`, `history.numbers-not-reused-after-delete`).
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresHistoryNumberTests {
    let namespace = "history-numbers-\(UUID().uuidString)"
    static let schema = try! Schema {
        Entity("Counter") {
            Attribute("name", .string, unique: true)
            Attribute("value", .int)
        }
    }
    static let counter = schema.entity(named: "Counter")!

    func configuration() -> PostgresStoreConfiguration {
        var configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        configuration.recordsHistory = true
        return configuration
    }

    /// A connection of its own on the store's namespace, to edit what an earlier Strata left.
    func connection() throws -> PostgresConnection {
        let connection = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        try PostgresCatalog.use(namespace, on: connection)
        return connection
    }

    func metadata(_ connection: PostgresConnection, _ key: String) throws -> SQLValue {
        let rows = try connection.query("SELECT \"value\" FROM strata_metadata WHERE \"key\" = convert_from($1, 'UTF8')", [.text(key)])
        return rows.count == 0 ? .null : rows.value(0, 0)
    }

    /// Inserts a counter (the shared save) and returns its identifier.
    func insert(_ store: PostgresStore, _ name: String) throws -> PersistentIdentifier {
        let snapshot = try DefaultSnapshot.inserting(Self.counter, values: ["name": .string(name), "value": .int(0)])
        return try #require(try store.save(SaveRequest(inserted: [snapshot])).remappedIdentifiers[snapshot.persistentIdentifier])
    }

    /// Sets the counter's value (the one-record update, one round trip).
    func update(_ store: PostgresStore, _ id: PersistentIdentifier, to value: Int64) throws {
        let stored = try #require(try store.snapshot(for: id))
        _ = try store.save(SaveRequest(updated: [try stored.updating(["value": .int(value)])]))
    }

    func numbers(_ store: PostgresStore) throws -> [Int64] { try store.fetchHistory(HistoryQuery()).map(\.token.transaction) }

    @Test("both writers share one sequence; deleting through a number past the newest keeps the horizon at the newest")
    func deletePastTheNewest() throws {
        defer { try? PostgresStore.dropStore(configuration()) }
        let store = try PostgresStore(configuration())
        let id = try insert(store, "a")
        for value in 1...3 { try update(store, id, to: Int64(value)) }
        _ = try insert(store, "b")
        #expect(try numbers(store) == [1, 2, 3, 4, 5])
        try store.deleteHistory(through: StoreHistoryToken(storeIdentifier: store.identifier, transaction: 100))
        #expect(try metadata(try connection(), "history_horizon") == .text("5"))
        try update(store, id, to: 4)
        _ = try insert(store, "c")
        #expect(try numbers(store) == [6, 7])
    }

    /// The counter's table is pruned on access (`PostgresHistory.pruneCounterEagerly`): a writer
    /// with history on sets `strata_metadata`'s fillfactor to 10, once; one without leaves the
    /// table alone. (What it saves the server is counted in docs/history.md, "Cost"; whether a
    /// page is pruned depends on every other session's snapshots, so it is not asserted here.)
    @Test("a writer with history sets fillfactor 10 on strata_metadata (the counter's dead versions pruned eagerly); one without does not")
    func counterPrunedEagerly() throws {
        defer { try? PostgresStore.dropStore(configuration()) }
        let edit = try connection()
        func options() throws -> SQLValue {
            try edit.query("SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'strata_metadata'::regclass").value(0, 0)
        }
        var off = configuration()
        off.recordsHistory = false
        let id = try insert(try PostgresStore(off), "a")
        #expect(try options() == .null, "a writer without history leaves the table alone")
        let store = try PostgresStore(configuration())
        #expect(try options() == .text("fillfactor=10"))
        _ = try PostgresStore(configuration())
        #expect(try options() == .text("fillfactor=10"), "set once, not appended again")
        for value in 1...3 { try update(store, id, to: Int64(value)) }
        #expect(try numbers(store) == [1, 2, 3])
    }

    /// Two stores on the same namespace (two processes' worth of connections) saving at once:
    /// each save reads the next number under the write lock, after the previous save committed,
    /// so every save succeeds and the numbers run 1, 2, 3, … in commit order, one per save.
    @Test("two instances saving at once: every save numbered, no number shared or skipped")
    func concurrentWriters() throws {
        defer { try? PostgresStore.dropStore(configuration()) }
        let setup = try PostgresStore(configuration())
        let ids = [try insert(setup, "a"), try insert(setup, "b")]
        let saves = 30
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            do {
                let store = try PostgresStore(configuration())
                for value in 1...saves {
                    try update(store, ids[worker], to: Int64(value))
                    if value % 5 == 0 { _ = try insert(store, "w\(worker)-\(value)") }
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let history = try setup.fetchHistory(HistoryQuery())
        let total = 2 + 2 * (saves + saves / 5)
        #expect(history.map(\.token.transaction) == Array(1...Int64(total)))
        // Each record's updates chain in number order: old value n − 1, new value n.
        for id in ids {
            let values = history.flatMap(\.changes).filter { $0.identifier == id && $0.kind == .update }.map(\.attributes)
            #expect(values == (1...saves).map { [HistoryAttributeChange("value", old: .int(Int64($0 - 1)), new: .int(Int64($0)))] })
        }
    }
}
