import Foundation
import StrataModel
import Testing

/// The model-level scenario, run on every built-in backend.
@Suite struct GraphScenarioTests {
    @Test(arguments: ModelBackend.all) func insertGraphSaveReopenNavigate(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        var tripID: PersistentIdentifier
        do {
            let container = try fixture.open()
            let context = ModelContext(container)
            let trip = Trip(name: "Rome", destination: "Italy")
            context.insert(trip)
            // Reachable new objects are inserted with the trip, from either side.
            trip.bucketList.append(BucketListItem(title: "Colosseum"))
            _ = BucketListItem(title: "Pantheon", trip: trip)
            trip.livingAccommodation = LivingAccommodation(address: "Via Roma 1", placeName: "Hotel")
            #expect(trip.bucketList.map(\.title) == ["Colosseum", "Pantheon"], "setting item.trip updates trip.bucketList at once")
            #expect(context.insertedModelsArray.count == 4)
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
            #expect(!trip.persistentModelID.isTemporary)
            #expect(trip.bucketList.allSatisfy { !$0.persistentModelID.isTemporary && $0.trip === trip })
            #expect(trip.livingAccommodation?.trip === trip)
            tripID = trip.persistentModelID
        }
        let container = try fixture.open()
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        #expect(trip.persistentModelID == tripID)
        #expect(trip.name == "Rome" && trip.destination == "Italy")
        #expect(Set(trip.bucketList.map(\.title)) == ["Colosseum", "Pantheon"])
        #expect(trip.bucketList.allSatisfy { $0.trip === trip })
        #expect(trip.livingAccommodation?.placeName == "Hotel")
        let items = try context.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\BucketListItem.title, order: .reverse)]))
        #expect(items.map(\.title) == ["Pantheon", "Colosseum"])
        #expect(items.allSatisfy { $0.trip === trip }, "one object per record: the items lead back to the same trip object")
        #expect(try context.fetch(FetchDescriptor<Trip>()).first === trip)
        #expect(try context.model(for: tripID, as: Trip.self) === trip)
    }

    @Test(arguments: ModelBackend.all) func relationshipsLoadLazily(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let tripID: PersistentIdentifier
        do {
            let context = ModelContext(try fixture.open())
            let trip = Trip(name: "Oslo", destination: "Norway")
            context.insert(trip)
            for n in 0..<20 { trip.bucketList.append(BucketListItem(title: "item \(n)")) }
            try context.save()
            tripID = trip.persistentModelID
        }
        let context = ModelContext(try fixture.open())
        let items = try context.fetch(FetchDescriptor<BucketListItem>())
        #expect(items.count == 20)
        #expect(context.registeredModel(for: tripID) as Trip? == nil, "fetching items does not load their trip")
        #expect(items[0].trip?.name == "Oslo")
        #expect(context.registeredModel(for: tripID) as Trip? != nil)
    }

    @Test(arguments: ModelBackend.all) func cascadeAndNullify(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let trip = Trip(name: "Paris", destination: "France")
        context.insert(trip)
        let items = (0..<3).map { BucketListItem(title: "i\($0)", trip: trip) }
        trip.livingAccommodation = LivingAccommodation(address: "Rue 1", placeName: "Flat")
        try context.save()

        // Nullify: deleting an item takes it out of the trip's list.
        context.delete(items[0])
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(items[0].isDeleted)
        #expect(trip.bucketList.map(\.title) == ["i1", "i2"])

        // Cascade: deleting the trip deletes its items and accommodation, in the store and in memory.
        let accommodation = try #require(trip.livingAccommodation)
        context.delete(trip)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<LivingAccommodation>()) == 0)
        #expect(items[1].isDeleted && items[2].isDeleted && accommodation.isDeleted)
    }

    @Test(arguments: ModelBackend.all) func denyFailsAndRollbackRestores(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let user = User(email: "ada@example.com", name: "Ada")
        context.insert(user)
        user.shelves.append(Shelf(label: "Top"))
        try context.save()

        context.delete(user)
        #expect(throws: StrataError.self) { try context.save() }
        do { try context.save() } catch let error as StrataError { #expect(error.code == .deleteDenied) }
        #expect(context.hasChanges, "a failed save keeps the pending delete")
        context.rollback()
        #expect(!user.isDeleted && !context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 1)

        // Rollback also restores changed values and drops inserts.
        user.name = "Changed"
        context.insert(User(email: "new@example.com", name: "New"))
        #expect(context.changedModelsArray.count == 1)
        context.rollback()
        #expect(user.name == "Ada")
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 1)

        // Deleting the shelves first lets the user go, in one save.
        for shelf in user.shelves { context.delete(shelf) }
        context.delete(user)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 0)
    }

    /// Rollback reloads only what differs from the store, so it must find the saved objects whose
    /// lists changed in memory as the other side of a change (an inverse is not their own change).
    @Test(arguments: ModelBackend.all) func rollbackUndoesInverseChanges(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        let setup = ModelContext(container)
        let ada = User(email: "ada@example.com", name: "Ada")
        let bob = User(email: "bob@example.com", name: "Bob")
        setup.insert(ada)
        setup.insert(bob)
        ada.shelves.append(Shelf(label: "Top"))
        try setup.save()

        let context = ModelContext(container)
        let user = try context.model(for: ada.persistentModelID, as: User.self)
        let other = try context.model(for: bob.persistentModelID, as: User.self)
        #expect(user.shelves.map(\.label) == ["Top"] && other.shelves.isEmpty)
        // A new shelf pointing at a stored user: only the inverse touches the user.
        _ = Shelf(label: "Bottom", owner: user)
        #expect(user.shelves.count == 2)
        #expect(!context.changedModelsArray.contains { $0 === user }, "an inverse is not the user's own change")
        context.rollback()
        #expect(user.shelves.map(\.label) == ["Top"], "the inverse append is undone")
        #expect(!context.hasChanges)

        // A stored shelf moved to another user: both users' lists change in memory, neither is changed.
        let shelf = user.shelves[0]
        shelf.owner = other
        #expect(user.shelves.isEmpty && other.shelves.map(\.label) == ["Top"])
        context.rollback()
        #expect(shelf.owner === user)
        #expect(user.shelves.map(\.label) == ["Top"] && other.shelves.isEmpty, "both inverses are undone")
        try context.save()
        let fresh = ModelContext(container)  // held: objects reference their context weakly
        #expect(try fresh.model(for: ada.persistentModelID, as: User.self).shelves.map(\.label) == ["Top"])
    }

    @Test(arguments: ModelBackend.all) func oneWayRelationship(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let user = User(email: "bob@example.com", name: "Bob")
        let log = AuditLog(message: "login", user: user)
        context.insert(log)
        try context.save()
        #expect(log.user === user)
        let reopened = ModelContext(context.container)
        let loaded = try #require(try reopened.fetch(FetchDescriptor<AuditLog>()).first)
        #expect(loaded.user?.email == "bob@example.com")
        // Deleting the user nullifies the log's reference through the hidden inverse.
        reopened.delete(try #require(loaded.user))
        try reopened.save()
        #expect(loaded.user == nil)
        #expect(try reopened.fetchCount(FetchDescriptor<AuditLog>()) == 1)
    }

    @Test(arguments: ModelBackend.all) func manyToManyBothDirections(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let ada = Person(first: "Ada", last: "Lovelace"), charles = Person(first: "Charles", last: "Babbage")
        context.insert(ada)
        ada.friends.append(charles)
        #expect(charles.friendOf.map(\.first) == ["Ada"])
        try context.save()
        let other = ModelContext(context.container)
        let people = try other.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\Person.first)]))
        #expect(people.map(\.first) == ["Ada", "Charles"])
        #expect(people[0].friends.map(\.first) == ["Charles"])
        #expect(people[1].friendOf.map(\.first) == ["Ada"])
    }
}
