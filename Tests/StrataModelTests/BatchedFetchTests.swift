import Foundation
import StrataModel
import Testing

/// `fetch(_:batchSize:)` and `fetchIdentifiers(_:batchSize:)`: SwiftData's `FetchResultsCollection`.
@Suite struct BatchedFetchTests {
    /// 25 saved trips, "trip 00" to "trip 24", each with one bucket-list item.
    private static func savedTrips(_ fixture: ModelFixture) throws -> ModelContainer {
        let container = try fixture.open()
        let context = ModelContext(container)
        for n in 0..<25 {
            let trip = Trip(name: String(format: "trip %02d", n), destination: n % 2 == 0 ? "even" : "odd")
            trip.bucketList.append(BucketListItem(title: "item \(n)"))
            context.insert(trip)
        }
        try context.save()
        return container
    }

    private static var byName: FetchDescriptor<Trip> { FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.name)]) }

    @Test(arguments: ModelBackend.all) func resultsAreFetchsResultsMadeABatchAtATime(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try Self.savedTrips(fixture)
        let ids = try ModelContext(container).fetchIdentifiers(Self.byName)
        let context = ModelContext(container)
        let results = try context.fetch(Self.byName, batchSize: 7)
        #expect(results.count == 25)
        #expect(ids.allSatisfy { (context.registeredModel(for: $0) as Trip?) == nil }, "no object is made before an index is read")

        // Reading index 10 makes the batch 7..<14, and nothing else.
        #expect(results[10].name == "trip 10")
        let made = ids.indices.filter { (context.registeredModel(for: ids[$0]) as Trip?) != nil }
        #expect(made == Array(7..<14))
        #expect(results[10] === results[10] && results[8] === context.registeredModel(for: ids[8]) as Trip?)

        // The whole collection, in order, as `fetch(_:)` gives it; the same objects (identity map).
        #expect(results.map(\.name) == (0..<25).map { String(format: "trip %02d", $0) })
        let plain = try context.fetch(Self.byName)
        #expect(zip(results, plain).allSatisfy { $0 === $1 })
        #expect(results.reversed().first?.name == "trip 24" && results.last?.bucketList.first?.title == "item 24")
        #expect(try context.fetchIdentifiers(Self.byName, batchSize: 7).elementsEqual(ids))
    }

    @Test(arguments: ModelBackend.all) func pendingChangesAndObjectsTheContextHolds(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try Self.savedTrips(fixture)
        let context = ModelContext(container)
        context.autosaveEnabled = false
        let renamed = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 03" })).first)
        renamed.destination = "changed, unsaved"
        context.insert(Trip(name: "trip 99", destination: "new"))
        let doomed = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 04" })).first)
        context.delete(doomed)

        let results = try context.fetch(Self.byName, batchSize: 4)
        #expect(results.count == 25, "24 saved, one deleted, one inserted")
        #expect(results.first { $0.name == "trip 03" } === renamed && renamed.destination == "changed, unsaved")
        #expect(results.last?.name == "trip 99")
        #expect(!results.contains { $0.name == "trip 04" })
        #expect(try context.fetchIdentifiers(Self.byName, batchSize: 4).count == 25)

        var storeOnly = Self.byName
        storeOnly.includePendingChanges = false
        #expect(try context.fetch(storeOnly, batchSize: 4).count == 25, "the store's 25, unsaved changes left out")
    }

    @Test(arguments: ModelBackend.all) func aBatchMadeLaterShowsTheFetchsMoment(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try Self.savedTrips(fixture)
        let context = ModelContext(container)
        let results = try context.fetch(Self.byName, batchSize: 5)
        #expect(results[0].name == "trip 00")

        // Another context deletes a record of a batch not made yet and renames one the context
        // then loads itself: the collection still reads its records, and an object the context
        // holds is the element with its newer values.
        let writer = ModelContext(container)
        try writer.delete(model: Trip.self, where: #Predicate { $0.name == "trip 20" })
        let moved = try #require(try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 12" })).first)
        moved.destination = "elsewhere"
        try writer.save()
        let fresh = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 12" })).first)

        #expect(results[20].name == "trip 20", "the fetch's result, not a later read")
        #expect(results[12] === fresh && results[12].destination == "elsewhere")
        #expect(try context.fetch(Self.byName, batchSize: 5).count == 24)
    }

    @Test(arguments: ModelBackend.all) func prefetchingAndErrorsAtTheCall(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try Self.savedTrips(fixture)
        let context = ModelContext(container)
        var descriptor = Self.byName
        descriptor.relationshipKeyPathsForPrefetching = [\Trip.bucketList]
        let results = try context.fetch(descriptor, batchSize: 10)
        _ = results[0]
        let items = try ModelContext(container).fetchIdentifiers(FetchDescriptor<BucketListItem>())
        #expect(items.filter { (context.registeredModel(for: $0) as BucketListItem?) != nil }.count == 10, "the first batch's targets, loaded with it")

        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "none" }), batchSize: 3).isEmpty)
        #expect(try context.fetch(Self.byName, batchSize: 0).count == 25, "a batch size below 1 counts as 1")
        var wrongPrefetch = FetchDescriptor<Trip>()
        wrongPrefetch.relationshipKeyPathsForPrefetching = [\Trip.name]
        #expect(throws: StrataError.self) { try context.fetch(wrongPrefetch, batchSize: 3) }
    }
}
