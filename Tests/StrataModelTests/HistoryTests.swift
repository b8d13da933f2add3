import Foundation
import StrataBuiltinBackends
import StrataMemory
import StrataModel
import Testing

/// SwiftData's history API on every built-in backend, written as SwiftData code is: a descriptor
/// with a `#Predicate` on the token and the author, `switch` over typed changes, tombstones.
@Suite struct HistoryTests {
    /// A backend whose configuration records history (`recordsHistory = true`).
    struct Recording: CustomStringConvertible, Sendable {
        let name: String
        let open: @Sendable (URL) throws -> ModelContainer
        /// Opens the store in `dir` read-only (it must exist).
        let openReadOnly: @Sendable (URL) throws -> ModelContainer
        var description: String { name }

        init<Factory: BuiltinStoreFactory>(name: String, _ factory: Factory) {
            let stores = factory.stores
            self.name = name
            let open: @Sendable (URL, Bool) throws -> ModelContainer = { dir, readOnly in
                var configuration = stores.configuration(dir, .empty)
                configuration.recordsHistory = true
                configuration.isReadOnly = readOnly
                return try ModelContainer(for: [Trip.self, BucketListItem.self, LivingAccommodation.self], configurations: configuration)
            }
            self.open = { try open($0, false) }
            self.openReadOnly = { try open($0, true) }
        }

        static let all: [Recording] = BuiltinStores.referenceFirstWithServers.map { Recording(name: $0.name, $0.factory) }
    }

    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-history-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func trip(_ name: String) -> Trip {
        Trip(name: name, destination: "D", startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 100))
    }

    /// Inserts trips `<prefix>0` … and saves each alone: one history transaction per trip.
    static func saveTrips(_ context: ModelContext, _ count: Int, prefix: String) throws {
        for n in 0..<count {
            context.insert(trip("\(prefix)\(n)"))
            try context.save()
        }
    }

    /// Whether the backend keeps history: every built-in one does, so a refusal is a failure.
    static func keepsHistory(_ container: ModelContainer) -> Bool {
        do {
            _ = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            return true
        } catch {
            Issue.record("no history: \(error)")
            return false
        }
    }

    @Test(arguments: Recording.all) func swiftDataHistoryCodeWorks(_ backend: Recording) throws {
        let dir = try Self.directory(backend.name)
        defer { try? FileManager.default.removeItem(at: dir); MemoryStore.destroy(name: dir.path) }
        let container = try backend.open(dir)
        guard Self.keepsHistory(container) else { return }
        let app = ModelContext(container)
        app.author = "app"
        let rome = Self.trip("Rome")
        app.insert(rome)
        try app.save()
        let first = try app.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(first.count == 1)
        let token = try #require(first.last?.token)

        let widget = ModelContext(container)
        widget.author = "widget"
        let trip = try #require(try widget.fetch(FetchDescriptor<Trip>()).first)
        trip.destination = "Italy"
        try widget.save()
        widget.delete(trip)
        try widget.save()

        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        descriptor.predicate = #Predicate { $0.token > token && $0.author == "widget" }
        let transactions = try app.fetchHistory(descriptor)
        #expect(transactions.count == 2)
        var seen: [String] = []
        for transaction in transactions {
            for change in transaction.changes {
                switch change {
                case .insert(let insert as DefaultHistoryInsert<Trip>):
                    seen.append("insert \(insert.changedPersistentIdentifier == rome.persistentModelID)")
                case .update(let update as DefaultHistoryUpdate<Trip>):
                    #expect(update.updatedAttributes == [\Trip.destination])
                    #expect(update.storeChange.attributes == [HistoryAttributeChange("destination", old: "D", new: "Italy")])
                    seen.append("update")
                case .delete(let delete as DefaultHistoryDelete<Trip>):
                    #expect(delete.tombstone[\Trip.name] as? String == "Rome")
                    seen.append("delete")
                default:
                    seen.append("other")
                }
            }
        }
        #expect(seen == ["update", "delete"])
        #expect(transactions[0].token < transactions[1].token)
    }

    @Test(arguments: Recording.all) func tokensSurviveReopenAndDeleteHistoryExpiresOlderOnes(_ backend: Recording) throws {
        let dir = try Self.directory(backend.name)
        defer { try? FileManager.default.removeItem(at: dir); MemoryStore.destroy(name: dir.path) }
        var saved: [DefaultHistoryToken] = []
        do {
            let container = try backend.open(dir)
            guard Self.keepsHistory(container) else { return }
            let context = ModelContext(container)
            try Self.saveTrips(context, 3, prefix: "t")
            saved = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token)
            let encoded = try JSONEncoder().encode(saved[1])
            #expect(try JSONDecoder().decode(DefaultHistoryToken.self, from: encoded) == saved[1])
        }
        let context = ModelContext(try backend.open(dir))
        let middle = saved[1]
        let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > middle }))
        #expect(after.map(\.token) == [saved[2]], "tokens compare the same after reopen")
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= middle }))
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token) == [saved[2]])
        // A token older than the kept history: SwiftData's "history token expired", not a silent
        // gap (before: the in-memory filter returned what was left as if nothing were missing).
        let oldest = saved[0]
        for expired in [
            #Predicate<DefaultHistoryTransaction> { $0.token > oldest },
            #Predicate<DefaultHistoryTransaction> { oldest < $0.token && $0.author != "nobody" },
        ] {
            do {
                _ = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: expired))
                Issue.record("a fetch from an expired token answered")
            } catch SwiftDataError.historyTokenExpired {
            } catch {
                Issue.record("expected historyTokenExpired, got \(error)")
            }
        }
        // From the newest deleted token (inclusive bound just past it) is not expired.
        let third = saved[2]
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > middle })).map(\.token) == [saved[2]])
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token >= third })).map(\.token) == [saved[2]])
    }
}
