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
    func name(of id: PersistentIdentifier) -> String? { self[id, as: Trip.self]?.name }
}

/// A serial model executor that counts the jobs it runs: proof that an actor conforming to
/// `ModelActor` runs on its `modelExecutor` (the protocol's `unownedExecutor`), not the default one.
final class CountingModelExecutor: SerialModelExecutor, @unchecked Sendable {
    let modelContext: ModelContext
    private let queue = DispatchQueue(label: "CountingModelExecutor")
    private let lock = NSLock()
    private var enqueued = 0
    init(modelContext: ModelContext) { self.modelContext = modelContext }
    var jobs: Int { lock.withLock { enqueued } }
    func enqueue(_ job: consuming ExecutorJob) {
        lock.withLock { enqueued += 1 }
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// A model actor written by hand, the way SwiftData code did before `@ModelActor` (and still may).
actor HandWrittenTripStore: ModelActor {
    nonisolated let modelExecutor: any ModelExecutor
    nonisolated let modelContainer: ModelContainer
    init(modelContainer: ModelContainer, executor: (ModelContext) -> any ModelExecutor) {
        self.modelExecutor = executor(ModelContext(modelContainer))
        self.modelContainer = modelContainer
    }
    func add(_ name: String) throws -> PersistentIdentifier {
        let trip = Trip(name: name, destination: "anywhere")
        modelContext.insert(trip)
        try modelContext.save()
        return trip.persistentModelID
    }
    func name(of id: PersistentIdentifier) -> String? { self[id, as: Trip.self]?.name }
    func isAnotherType(_ id: PersistentIdentifier) -> Bool { self[id, as: BucketListItem.self] == nil }
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
        #expect(await reader.name(of: ids[1234]) == "import 1234")
    }

    @Test(arguments: ModelBackend.all) func aHandWrittenModelActorRunsOnItsExecutor(_ backend: ModelBackend) async throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        var counting: CountingModelExecutor?
        let store = HandWrittenTripStore(modelContainer: container) { context in
            let executor = CountingModelExecutor(modelContext: context)
            counting = executor
            return executor
        }
        let before = try #require(counting).jobs
        let id = try await store.add("by hand")
        #expect(await store.name(of: id) == "by hand")
        #expect(await store.isAnotherType(id))
        #expect(try #require(counting).jobs > before, "the actor's code did not run on its model executor")
        // What it saved is in the store, for another context too.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
        // The default executor `@ModelActor` uses, made by hand.
        let plain = HandWrittenTripStore(modelContainer: container) { DefaultSerialModelExecutor(modelContext: $0) }
        #expect(await plain.name(of: id) == "by hand")
        #expect(plain.modelExecutor is DefaultSerialModelExecutor)
    }
}
