import Foundation
import StrataModel
import Testing

@ModelActor actor TripImporter {
    /// Inserts `count` trips in saves of `batch`, returning their identifiers.
    func importTrips(_ count: Int, batch: Int) throws -> [PersistentIdentifier] {
        var ids: [PersistentIdentifier] = []
        var pending: [Trip] = []
        for n in 0..<count {
            let trip = Trip(name: "import \(n)", destination: "d\(n % 10)")
            modelContext.insert(trip)
            pending.append(trip)
            if pending.count == batch || n == count - 1 {
                try modelContext.save()
                ids += pending.map(\.persistentModelID)
                pending = []
            }
        }
        return ids
    }
}

@ModelActor actor TripReader {
    func count() throws -> Int { try modelContext.fetchCount(FetchDescriptor<Trip>()) }
    func name(of id: PersistentIdentifier) throws -> String { try model(for: id, as: Trip.self).name }
}

@Suite struct ModelActorTests {
    @Test(arguments: ModelBackend.all) func importInBatchesWhileReading(_ backend: ModelBackend) async throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        let changes = container.changes()
        let importer = TripImporter(modelContainer: container)
        let reader = TripReader(modelContainer: container)
        let total = 10_000, batch = 500
        async let imported = importer.importTrips(total, batch: batch)
        // The reader reacts to each committed save and must always see whole batches.
        var seen: [Int] = []
        var insertedSoFar = 0
        for await change in changes {
            insertedSoFar += change.inserted.count
            seen.append(try await reader.count())
            if insertedSoFar >= total { break }
        }
        let ids = try await imported
        #expect(ids.count == total && Set(ids).count == total)
        #expect(seen.allSatisfy { $0 % batch == 0 }, "a reader saw a partial save: \(seen)")
        #expect(seen == seen.sorted())
        #expect(try await reader.count() == total)
        #expect(try await reader.name(of: ids[1234]) == "import 1234")
    }
}
