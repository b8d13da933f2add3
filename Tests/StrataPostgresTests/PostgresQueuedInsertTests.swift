import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Testing

/// A save's INSERTs queued and sent many per round trip (`PostgresConnection+Queue.swift`): rows
/// refused for a unique value are named and the transaction goes on; reads see every queued row;
/// through the shared save, a collision mid-save is held back as when rows ran one by one.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresQueuedInsertTests {
    let namespace = "queued-\(UUID().uuidString)"
    static let schema = try! Schema {
        Entity("Item") {
            Attribute("name", .string, unique: true)
            Attribute("rank", .int)
        }
    }

    func connection() throws -> PostgresConnection { try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!)) }

    @Test("queued rows: the unique refusals are named across chunks, a read sends the queue first, other failures throw")
    func queue() throws {
        let connection = try connection()
        try connection.execute("CREATE TEMP TABLE q (k bigint PRIMARY KEY, u bytea UNIQUE)")
        try connection.query("INSERT INTO q VALUES ($1, $2)", [.integer(-1), .text("taken")])
        try connection.execute("BEGIN")
        let statement = try connection.prepare("INSERT INTO q (k, u) VALUES ($1, $2)")
        let taken: Set<Int> = [3, 700, 1_400]
        for n in 0..<1_500 {
            try statement.bind([.integer(Int64(n)), .text(taken.contains(n) ? "taken" : "u\(n)")])
            try connection.queueInsert(statement)
            // 1,001 rows queued, 3 and 700 refused, plus the row stored before.
            if n == 1_000 { #expect(try connection.query("SELECT count(*) FROM q").integer(0, 0) == 1_000) }
        }
        #expect(try connection.sendQueuedInserts() == [3, 700, 1_400])
        #expect(try connection.sendQueuedInserts() == [], "nothing queued since")
        try connection.commit()
        #expect(try connection.query("SELECT count(*) FROM q").integer(0, 0) == 1_500 - 3 + 1)

        try connection.execute("BEGIN")
        try statement.bind([.null, .text("no key")])
        try connection.queueInsert(statement)
        #expect { _ = try connection.sendQueuedInserts() } throws: { ($0 as? PostgresError)?.sqlstate == "23502" }
        try connection.rollback()
        #expect(connection.isAlive)
        #expect(try connection.query("SELECT count(*) FROM q").integer(0, 0) == 1_500 - 3 + 1)
    }

    func item(_ name: String, _ rank: Int) throws -> DefaultSnapshot {
        try DefaultSnapshot.inserting(Self.schema.entity(named: "Item")!, values: ["name": .string(name), "rank": .int(Int64(rank))])
    }

    func names(_ store: PostgresStore) throws -> [String: Int64] {
        var names: [String: Int64] = [:]
        for snapshot in try store.fetch(FetchDescriptor(entity: "Item")) {
            guard case .string(let name) = try snapshot.value("name"), case .int(let rank) = try snapshot.value("rank") else { continue }
            names[name] = rank
        }
        return names
    }

    @Test("a save of 1,200 inserts: names freed by its own deletes are taken, a name left colliding fails the whole save")
    func sharedSave() throws {
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        _ = try store.save(SaveRequest(inserted: try (0..<1_200).map { try item("n\($0)", 0) }))
        #expect(try store.fetchCount(FetchDescriptor(entity: "Item")) == 1_200)

        // The new rows 5, 600 and 1,100 take the names of records this save deletes (after the
        // INSERTs): refused mid-save, held back, set at the end.
        let freed = [5, 600, 1_100]
        let gone = try store.fetch(FetchDescriptor(entity: "Item")).filter {
            guard case .string(let name) = try $0.value("name") else { return false }
            return freed.map { "n\($0)" }.contains(name)
        }
        #expect(gone.count == 3)
        let inserted = try (0..<1_200).map { try item(freed.contains($0) ? "n\($0)" : "m\($0)", 1) }
        _ = try store.save(SaveRequest(inserted: inserted, deleted: gone))
        let after = try names(store)
        #expect(after.count == 2_400 - 3)
        for n in freed { #expect(after["n\(n)"] == 1, "n\(n) belongs to the new record") }

        // One name still taken at the end of the save: nothing of the save stays.
        let failing = try (0..<1_000).map { try item($0 == 900 ? "n7" : "k\($0)", 2) }
        #expect { try store.save(SaveRequest(inserted: failing)) } throws: { ($0 as? StrataError)?.code == .uniqueConstraintViolation }
        #expect(try names(store) == after)
        // The store saves again afterwards (nothing left queued on the writer).
        _ = try store.save(SaveRequest(inserted: [try item("last", 3)]))
        #expect(try names(store).count == 2_400 - 3 + 1)
    }
}
