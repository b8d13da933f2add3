import Foundation
import StrataModel
import Testing

/// Observation of fetched objects, whose registrar is made when a property is first read
/// (`LazyObservation.swift`): every path that changes a property — the setter, a refresh from the
/// store, the other side of a relationship — still tells an observer, and a change made before any
/// read is kept.
@Suite struct LazyObservationTests {
    final class Fired: @unchecked Sendable { var count = 0 }

    /// A saved trip (with one bucket-list item) and its identifier.
    private func savedTrip(_ fixture: ModelFixture) throws -> PersistentIdentifier {
        let context = ModelContext(try fixture.open())
        let trip = Trip(name: "Rome", destination: "Italy")
        context.insert(trip)
        try context.save()
        return trip.persistentModelID
    }

    @Test(arguments: ModelBackend.all) func aFetchedObjectTellsItsObserver(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        _ = try savedTrip(fixture)
        let context = ModelContext(try fixture.open())
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let fired = Fired()
        let seen = withObservationTracking { trip.destination } onChange: { fired.count += 1 }
        #expect(seen == "Italy")
        trip.destination = "Lazio"
        #expect(fired.count == 1)
        #expect(trip.destination == "Lazio")
    }

    @Test(arguments: ModelBackend.all) func aChangeBeforeAnyReadIsKeptAndLaterObserved(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let id = try savedTrip(fixture)
        let context = ModelContext(try fixture.open())
        let trip = try context.model(for: id, as: Trip.self)
        trip.destination = "Lazio"  // no property read yet: no registrar, nobody to tell
        #expect(trip.hasChanges)
        try context.save()
        #expect(try ModelContext(try fixture.open()).model(for: id, as: Trip.self).destination == "Lazio")
        let fired = Fired()
        withObservationTracking { _ = trip.destination } onChange: { fired.count += 1 }
        trip.destination = "Umbria"
        #expect(fired.count == 1)
    }

    @Test(arguments: ModelBackend.all) func aRefreshFromTheStoreTellsObservers(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let id = try savedTrip(fixture)
        let container = try fixture.open()
        let reader = ModelContext(container)
        let trip = try reader.model(for: id, as: Trip.self)
        let fired = Fired()
        withObservationTracking { _ = trip.destination } onChange: { fired.count += 1 }
        let writer = ModelContext(container)
        try writer.model(for: id, as: Trip.self).destination = "Lazio"
        try writer.save()
        #expect(fired.count == 0)
        // The reader's next fetch finds a newer record for its unchanged object and unloads it.
        _ = try reader.fetch(FetchDescriptor<Trip>())
        #expect(fired.count == 1)
        #expect(trip.destination == "Lazio")
    }

    @Test(arguments: ModelBackend.all) func theOtherSideOfARelationshipTellsObservers(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let id = try savedTrip(fixture)
        let context = ModelContext(try fixture.open())
        let trip = try context.model(for: id, as: Trip.self)
        let fired = Fired()
        let before = withObservationTracking { trip.bucketList.count } onChange: { fired.count += 1 }
        #expect(before == 0)
        let item = BucketListItem(title: "Colosseum")
        context.insert(item)
        item.trip = trip  // the trip's `bucketList` gains the item as the inverse
        #expect(fired.count == 1)
        #expect(trip.bucketList.map(\.title) == ["Colosseum"])
    }
}
