import Foundation
@_spi(StrataEngine) import Strata
import StrataPostgres
import Synchronization
import Testing

/// Two store objects on one PostgreSQL namespace (what two processes hold) saving one record in
/// turn, with history off and on: each sees the other's last save before it writes, no update is
/// lost beyond the contract's rules (a whole-record update from a stale copy is the later one; a
/// conflict-checked one from a stale copy fails with `writeConflict`; partial updates of different
/// properties both stay), and history numbers are distinct and increasing across both writers,
/// each transaction's old value the previous one's new value.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresTwoStoreTests {
    static let schema = try! Schema {
        Entity("Counter") {
            Attribute("name", .string, unique: true)
            Attribute("value", .int)
            Attribute("left", .string, default: .string(""))
            Attribute("right", .string, default: .string(""))
        }
    }
    static let counter = schema.entity(named: "Counter")!
    static var value: Int { counter.attributeIndex("value")! }

    func configuration(_ namespace: String, history: Bool) -> PostgresStoreConfiguration {
        var configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        configuration.recordsHistory = history
        return configuration
    }

    @Test(arguments: [false, true]) func twoStoresSavingOneRecordInTurn(history: Bool) throws {
        let namespace = "two-stores-\(UUID().uuidString)"
        defer { try? PostgresStore.dropStore(configuration(namespace, history: history)) }
        let a = try PostgresStore(configuration(namespace, history: history))
        let b = try PostgresStore(configuration(namespace, history: history))
        #expect(a.identifier == b.identifier)
        let inserted = try DefaultSnapshot.inserting(Self.counter, values: ["name": .string("c"), "value": .int(0)])
        let id = try #require(try a.save(SaveRequest(inserted: [inserted])).remappedIdentifiers[inserted.persistentIdentifier])

        let rounds = 24
        for round in 0..<rounds {
            let (writer, name) = round % 2 == 0 ? (b, "b") : (a, "a")
            let seen = try #require(try writer.snapshot(for: id))
            #expect(seen.attributeValue(at: Self.value) == .int(Int64(round)), "history \(history), round \(round): \(name) sees the other's last save")
            let next = try seen.updating(["value": .int(Int64(round + 1))])
            switch round % 3 {
            case 0: _ = try writer.save(SaveRequest(updated: [next], author: name))  // whole record (one round trip)
            case 1:  // partial, conflict-checked against what it read
                let listed = UpdatedProperties(attributes: [Self.value], expecting: [.int(Int64(round))], relationships: [], expecting: [])
                _ = try writer.save(SaveRequest(updated: [next], updatedProperties: [id: listed], author: name))
            default: _ = try writer.save(SaveRequest(updated: [next], updatedProperties: [id: UpdatedProperties(attributes: [Self.value])], author: name))
            }
        }
        for store in [a, b] { #expect(try store.snapshot(for: id)?.attributeValue(at: Self.value) == .int(Int64(rounds)), "history \(history): final value") }

        // Both read the same value; the first conflict-checked increment wins, the second is refused.
        let seenByA = try #require(try a.snapshot(for: id)), seenByB = try #require(try b.snapshot(for: id))
        let checked = UpdatedProperties(attributes: [Self.value], expecting: [.int(Int64(rounds))], relationships: [], expecting: [])
        _ = try a.save(SaveRequest(updated: [try seenByA.updating(["value": .int(Int64(rounds + 1))])], updatedProperties: [id: checked], author: "a"))
        let refused = #expect(throws: StrataError.self, "history \(history): a stale conflict-checked increment") {
            try b.save(SaveRequest(updated: [try seenByB.updating(["value": .int(Int64(rounds + 1))])], updatedProperties: [id: checked], author: "b"))
        }
        #expect(refused?.code == .writeConflict, "history \(history): \(String(describing: refused))")
        // Partial updates of different properties from the same stale copies both stay.
        let left = UpdatedProperties(attributes: [Self.counter.attributeIndex("left")!])
        let right = UpdatedProperties(attributes: [Self.counter.attributeIndex("right")!])
        _ = try a.save(SaveRequest(updated: [try seenByA.updating(["left": .string("from a")])], updatedProperties: [id: left], author: "a"))
        _ = try b.save(SaveRequest(updated: [try seenByB.updating(["right": .string("from b")])], updatedProperties: [id: right], author: "b"))
        for store in [a, b] {
            let final = try #require(try store.snapshot(for: id))
            #expect(try final.value("left") == .string("from a") && final.value("right") == .string("from b"), "history \(history): both partial updates kept")
            #expect(try final.value("value") == .int(Int64(rounds + 1)), "history \(history): the refused increment changed nothing")
        }
        guard history else { return }

        let seenFromA = try a.fetchHistory(HistoryQuery()), seenFromB = try b.fetchHistory(HistoryQuery())
        #expect(seenFromA == seenFromB, "both writers' transactions seen from both stores")
        let numbers = seenFromA.map(\.token.transaction)
        #expect(numbers.count == 1 + rounds + 3, "one transaction per acknowledged save: \(numbers)")
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "numbers distinct and increasing: \(numbers)")
        let increments = seenFromA.dropFirst().prefix(rounds + 1)
        for (n, transaction) in increments.enumerated() {
            let change = transaction.changes.first { $0.identifier == id }?.attributes.first { $0.name == "value" }
            #expect(change?.old == .int(Int64(n)) && change?.new == .int(Int64(n + 1)), "transaction \(transaction.token.transaction): \(String(describing: change))")
            #expect(transaction.author == (n == rounds ? "a" : n % 2 == 0 ? "b" : "a"), "transaction \(transaction.token.transaction) by \(transaction.author ?? "-")")
        }
    }

    /// Two threads, one store object each, incrementing one counter at once with conflict checks:
    /// the counter ends at the number of acknowledged increments, refused ones changed nothing.
    @Test(arguments: [false, true]) func twoStoresIncrementingAtOnce(history: Bool) throws {
        let namespace = "two-stores-race-\(UUID().uuidString)"
        defer { try? PostgresStore.dropStore(configuration(namespace, history: history)) }
        let stores = [try PostgresStore(configuration(namespace, history: history)), try PostgresStore(configuration(namespace, history: history))]
        let inserted = try DefaultSnapshot.inserting(Self.counter, values: ["name": .string("c"), "value": .int(0)])
        let id = try #require(try stores[0].save(SaveRequest(inserted: [inserted])).remappedIdentifiers[inserted.persistentIdentifier])
        let attempts = 60
        let acknowledged = Mutex<[Int]>([0, 0])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let store = stores[worker]
            do {
                for _ in 0..<attempts {
                    guard let seen = try store.snapshot(for: id), case .int(let v) = seen.attributeValue(at: Self.value) else { throw StrataError(.corruptStore, "counter missing") }
                    let listed = UpdatedProperties(attributes: [Self.value], expecting: [.int(v)], relationships: [], expecting: [])
                    do {
                        _ = try store.save(SaveRequest(updated: [try seen.updating(["value": .int(v + 1)])], updatedProperties: [id: listed]))
                        acknowledged.withLock { $0[worker] += 1 }
                    } catch let error as StrataError where error.code == .writeConflict {}
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let counts = acknowledged.withLock { $0 }
        let total = counts[0] + counts[1]
        #expect(try stores[1].snapshot(for: id)?.attributeValue(at: Self.value) == .int(Int64(total)), "history \(history): no lost increment (\(counts[0]) + \(counts[1]))")
        if history {
            let numbers = try stores[0].fetchHistory(HistoryQuery()).map(\.token.transaction)
            #expect(numbers.count == 1 + total && Set(numbers).count == numbers.count && numbers == numbers.sorted(), "history numbers: \(numbers)")
        }
    }
}
