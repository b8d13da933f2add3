import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Synchronization
import Testing

/// How PostgreSQL numbers history transactions (`PostgresHistory`): under the store's write lock,
/// from the sequence `strata_history_token` (format 3), with `history_horizon` at the newest number
/// deleted — for both writers of a transaction, the shared save and the one-record update that
/// records in its own statement. The rules every backend keeps — two instances never share a
/// number, none is reused after `deleteHistory`, a failed save takes none — are suite cases
/// (`history.two-writers-number-apart`, `history.numbers-not-reused-after-delete`); a save killed
/// after taking its number is `PostgresHistoryKillTests`'.
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

    /// A store a format 2 writer recorded in kept its newest number in the counter `history_last`
    /// (moved on every save) and had no sequence. Opened for writing with history on, it gets the
    /// sequence, starting after the newest of the counter, the horizon and the table's rows, and
    /// format 3; the counter row goes.
    @Test("a format 2 store (the counter history_last, no sequence) numbers on after its newest number and becomes format 3")
    func aFormat2StoreNumbersOn() throws {
        defer { try? PostgresStore.dropStore(configuration()) }
        let id = try insert(try PostgresStore(configuration()), "a")
        let edit = try connection()
        try edit.execute("DROP SEQUENCE strata_history_token; UPDATE strata_metadata SET \"value\" = '2' WHERE \"key\" = 'format'")
        try edit.execute("INSERT INTO strata_metadata (\"key\", \"value\") VALUES ('history_last', '9')")
        let store = try PostgresStore(configuration())
        #expect(try metadata(edit, "format") == .text("3"))
        #expect(try metadata(edit, "history_last") == .null)
        try update(store, id, to: 1)
        _ = try insert(store, "b")
        #expect(try numbers(store) == [1, 10, 11])
        // Without a counter, the table's newest row is the floor.
        try edit.execute("DROP SEQUENCE strata_history_token; UPDATE strata_metadata SET \"value\" = '2' WHERE \"key\" = 'format'")
        let reopened = try PostgresStore(configuration())
        try update(reopened, id, to: 2)
        #expect(try numbers(reopened) == [1, 10, 11, 12])
        // Deleting history on a format 2 store opened without history (no sequence yet): the
        // horizon stops at the counter, and a writer with history numbers on after it.
        try edit.execute("DROP SEQUENCE strata_history_token; UPDATE strata_metadata SET \"value\" = '2' WHERE \"key\" = 'format'")
        try edit.execute("INSERT INTO strata_metadata (\"key\", \"value\") VALUES ('history_last', '14')")
        var off = configuration()
        off.recordsHistory = false
        let without = try PostgresStore(off)
        try without.deleteHistory(through: StoreHistoryToken(storeIdentifier: without.identifier, transaction: 100))
        #expect(try metadata(edit, "history_horizon") == .text("14"))
        #expect(try numbers(without) == [])
        let after = try PostgresStore(configuration())
        try update(after, id, to: 3)
        #expect(try numbers(after) == [15])
    }

    /// A save refused with an error takes no number, on the one-record path (which then goes the
    /// shared way and is refused there) as on the shared one, and a save that writes the stored
    /// values records nothing: the next transaction is numbered one higher.
    @Test("refused saves and a save that changes nothing take no number")
    func refusedSavesTakeNoNumber() throws {
        defer { try? PostgresStore.dropStore(configuration()) }
        let store = try PostgresStore(configuration())
        let a = try insert(store, "a"), b = try insert(store, "b"), c = try insert(store, "c")
        let stale = try #require(try store.snapshot(for: a))
        _ = try store.save(SaveRequest(deleted: [stale]))
        // The one-record update of a deleted record: the statement finds no row, the shared way
        // reports it.
        #expect(throws: StrataError.self) { _ = try store.save(SaveRequest(updated: [try stale.updating(["value": .int(5)])])) }
        // A unique value taken, on the one-record path (then the shared one) and by an insert.
        let third = try #require(try store.snapshot(for: c))
        #expect(throws: StrataError.self) { _ = try store.save(SaveRequest(updated: [try third.updating(["name": .string("b")])])) }
        let duplicate = try DefaultSnapshot.inserting(Self.counter, values: ["name": .string("b"), "value": .int(0)])
        #expect(throws: StrataError.self) { _ = try store.save(SaveRequest(inserted: [duplicate])) }
        // The stored values written again: no transaction.
        _ = try store.save(SaveRequest(updated: [try #require(try store.snapshot(for: b))]))
        try update(store, b, to: 7)
        #expect(try numbers(store) == [1, 2, 3, 4, 5])
    }

    /// Two stores on the same namespace (two processes' worth of connections) saving at once:
    /// each save takes the next number under the write lock, after the previous save committed,
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
