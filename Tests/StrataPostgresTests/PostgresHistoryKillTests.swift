import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataPostgres
import Testing

/// A writer process killed (SIGKILL) in the middle of one-record updates with history on: the path
/// that records the transaction in the save's own one round trip (`PostgresStore+SingleUpdate.swift`),
/// which `strata torture` never takes (its saves always insert). Each kill comes right after the
/// writer acknowledged a save chosen at random (an observed event, never a sleep), while it is
/// already sending the next; after each, history and data must agree.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresHistoryKillTests {
    /// Kills per run: 10 in `make test` (each kill is checked on its own, so ten already show a
    /// lost or duplicated transaction), 100 in `make soak`, any number with `STRATA_PG_KILLS`.
    static let kills = ProcessInfo.processInfo.environment["STRATA_PG_KILLS"].flatMap(Int.init) ?? 10

    @Test("kill -9 in the middle of one-record updates with history: every committed update has exactly its transaction, numbers rising, none for an uncommitted one")
    func killedInOneRecordUpdates() async throws {
        try await onOwnThread {
            let directory = PostgresWorker.storeDirectory()
            let url = PostgresTestServer.url!
            let configuration = PostgresStoreConfiguration(url: url, schema: FixtureDomain.schema, namespace: PostgresWorker.namespace(directory))
            defer { try? PostgresStore.dropStore(configuration) }
            try PostgresWorker.prepare(directory: directory, url: url)
            let reader = try PostgresStore(configuration)
            let connection = try PostgresConnection(settings: PostgresConnectionSettings(url: url))
            try PostgresCatalog.use(configuration.namespace, on: connection)
            var random = SeededGenerator(state: 30)
            var acknowledged: Int64 = 0, inFlightCommitted = 0
            for round in 0..<Self.kills {
                let worker = try PostgresWorker(directory: directory, url: url, worker: 0, saves: 1_000_000, seed: 1, updates: true)
                try #require(worker.read { $0 == "ready" })
                worker.send("go")
                let target = Int.random(in: 1...40, using: &random)
                var seen = 0
                try #require(worker.read { line in
                    if let value = Int64(line.dropFirst("update ".count)), line.hasPrefix("update ") { acknowledged = value }
                    seen += 1
                    return seen == target
                }, "round \(round): the writer stopped before \(target) saves")
                kill(worker.process.processIdentifier, SIGKILL)
                _ = worker.finish()
                // Lines printed after the target, before the kill, are acknowledged too.
                for line in worker.lines.dropFirst(target) where line.hasPrefix("update ") { acknowledged = Int64(line.dropFirst("update ".count)) ?? acknowledged }

                // The data and the history in one snapshot: the server may still be running the
                // killed writer's last pipeline (its COMMIT included) while this reads, so two
                // reads could fall on either side of that commit.
                let (value, history) = try Self.read(connection, namespace: configuration.namespace, storeIdentifier: reader.identifier)
                // Every acknowledged save is there; at most the one in flight committed besides.
                #expect(value == acknowledged || value == acknowledged + 1, "round \(round): value \(value), acknowledged \(acknowledged)")
                if value == acknowledged + 1 { inFlightCommitted += 1 }
                acknowledged = value
                Self.checkHistory(history, committed: value, round: round)
            }
            print("\(Self.kills) kills in one-record updates with history: \(acknowledged) updates committed, \(inFlightCommitted) kills after the save in flight had committed")
        }
    }

    /// The Sample `shared`'s `int` and every history transaction, read in one REPEATABLE READ
    /// transaction (one snapshot).
    static func read(_ connection: PostgresConnection, namespace: String, storeIdentifier: String) throws -> (Int64, [StoreHistoryTransaction]) {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? connection.execute("COMMIT") }
        let rows = try connection.query("SELECT \"int\" FROM \"Sample\" WHERE \"label\" = $1", [.blob(Data("shared".utf8))])
        let value = try #require(rows.count == 1 ? rows.integer(0, 0) : nil)
        let history = try PostgresHistory.fetch(connection, HistoryQuery(), storeIdentifier: storeIdentifier, namespace: namespace, store: namespace)
        return (value, history)
    }

    /// One transaction per committed update, in commit order with numbers rising (a save killed
    /// after taking its number leaves it unused: PostgreSQL numbers from a sequence, docs/history.md
    /// "Numbers"), each the update from the value before to its own: `int`, `double` and `string`
    /// with their old and new values.
    static func checkHistory(_ history: [StoreHistoryTransaction], committed: Int64, round: Int) {
        #expect(history.count == Int(committed), "round \(round): \(committed) updates committed, \(history.count) transactions")
        let numbers = history.map(\.token.transaction)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "round \(round): numbers not rising: \(numbers)")
        for (n, transaction) in history.enumerated() {
            let value = Int64(n) + 1
            guard transaction.changes.count == 1, transaction.changes[0].kind == .update else {
                Issue.record("round \(round): transaction \(value) holds \(transaction.changes)")
                continue
            }
            let expected = [
                HistoryAttributeChange("int", old: .int(value - 1), new: .int(value)),
                HistoryAttributeChange("double", old: value == 1 ? .null : .double(Double(value - 1) / 4), new: .double(Double(value) / 4)),
                HistoryAttributeChange("string", old: value == 1 ? .null : .string("u\(value - 1)"), new: .string("u\(value)")),
            ]
            #expect(transaction.changes[0].attributes == expected, "round \(round): transaction \(value)")
        }
    }
}
