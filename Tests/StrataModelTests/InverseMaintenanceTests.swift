import Foundation
import StrataModel
import Testing

/// The other side of a relationship, kept in memory as one side is set: each object is listed
/// exactly once, where its own side points, whether it is new or saved, and the store agrees.
@Suite struct InverseMaintenanceTests {
    /// The titles of a trip's items, in order.
    private func titles(_ trip: Trip) -> [String] { trip.bucketList.map(\.title) }

    @Test(arguments: ModelBackend.all) func reassigningMovesAnItemExactlyOnce(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        do {
            let context = ModelContext(try fixture.open())
            let rome = Trip(name: "Rome", destination: "Italy"), oslo = Trip(name: "Oslo", destination: "Norway")
            context.insert(rome)
            context.insert(oslo)
            let items = (0..<4).map { BucketListItem(title: "item \($0)") }
            // New items: appended without a search, each once.
            for item in items { item.trip = rome }
            #expect(titles(rome) == ["item 0", "item 1", "item 2", "item 3"])
            items[1].trip = oslo
            #expect(titles(rome) == ["item 0", "item 2", "item 3"], "the first trip loses the item once")
            #expect(titles(oslo) == ["item 1"])
            items[1].trip = oslo
            #expect(titles(oslo) == ["item 1"], "setting the same trip again lists the item once")
            items[1].trip = nil
            #expect(oslo.bucketList.isEmpty)
            items[1].trip = rome
            #expect(titles(rome) == ["item 0", "item 2", "item 3", "item 1"])
            try context.save()

            // Saved items: the lists come from the store's side too, so the item is looked for.
            items[0].trip = oslo
            items[0].trip = oslo
            items[3].trip = oslo
            #expect(titles(rome) == ["item 2", "item 1"])
            #expect(titles(oslo) == ["item 0", "item 3"])
            try context.save()
        }
        let context = ModelContext(try fixture.open())
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.name)]))
        #expect(trips.map(\.name) == ["Oslo", "Rome"])
        #expect(titles(trips[0]) == ["item 0", "item 3"])
        #expect(titles(trips[1]) == ["item 2", "item 1"])
        // A saved item reassigned in a fresh context, whose lists load from the store.
        let item2 = try #require(trips[1].bucketList.first)
        item2.trip = trips[0]
        #expect(titles(trips[1]) == ["item 1"])
        #expect(titles(trips[0]) == ["item 0", "item 3", "item 2"])
        let unloaded = ModelContext(context.container)
        let item1 = try #require(try unloaded.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "item 1" })).first)
        let oslo = try #require(try unloaded.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" })).first)
        item1.trip = oslo  // Oslo's list is not loaded yet: it loads from the store, then gains the item
        #expect(titles(oslo) == ["item 0", "item 3", "item 1"])
        #expect(item1.trip === oslo)
    }

    @Test(arguments: ModelBackend.all) func aToManySideSetDirectlyMovesItems(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let rome = Trip(name: "Rome", destination: "Italy"), oslo = Trip(name: "Oslo", destination: "Norway")
        context.insert(rome)
        context.insert(oslo)
        let item = BucketListItem(title: "museum", trip: rome)
        #expect(titles(rome) == ["museum"])
        oslo.bucketList.append(item)
        #expect(rome.bucketList.isEmpty, "the item's previous trip loses it")
        #expect(item.trip === oslo)
        oslo.bucketList = []
        #expect(item.trip == nil)
        item.trip = oslo
        #expect(titles(oslo) == ["museum"], "a new item listed again after its trip's list was emptied")
        try context.save()
        let other = ModelContext(context.container)
        let stored = try other.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.name)]))
        #expect(stored.map { titles($0) } == [["museum"], []])
    }

    @Test(arguments: ModelBackend.all) func aTargetListedTwiceInAToManyIsToldOnce(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let ada = Person(first: "Ada", last: "Lovelace"), charles = Person(first: "Charles", last: "Babbage")
        let mary = Person(first: "Mary", last: "Somerville")
        context.insert(ada)
        ada.friends.append(charles)
        ada.friends.append(charles)  // listed twice on this side: still one friend on the other
        #expect(charles.friendOf.count == 1 && charles.friendOf.first === ada)
        mary.friends = [charles, charles, ada]
        #expect(charles.friendOf.map(\.first) == ["Ada", "Mary"])
        #expect(ada.friendOf.map(\.first) == ["Mary"])
        mary.friends = [ada]
        #expect(charles.friendOf.map(\.first) == ["Ada"])
    }

    @Test func aLongListFillsInOrder() throws {
        let fixture = try ModelFixture(ModelBackend.all[0])
        let context = ModelContext(try fixture.open())
        let trip = Trip(name: "Long", destination: "Everywhere")
        context.insert(trip)
        let items = (0..<1_000).map { BucketListItem(title: "item \($0)") }
        for item in items { item.trip = trip }
        #expect(trip.bucketList.count == 1_000)
        #expect(zip(trip.bucketList, items).allSatisfy { $0 === $1 })
        for item in items where item.title.hasSuffix("7") { item.trip = nil }
        #expect(trip.bucketList.count == 900)
        #expect(!trip.bucketList.contains { $0.title.hasSuffix("7") })
        try context.save()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.trip != nil })) == 900)
    }
}
