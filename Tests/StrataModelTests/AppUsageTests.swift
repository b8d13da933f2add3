import Foundation
import StrataModel
import Testing

/// The model layer as an app uses it, on every backend: a failed save and the save that fixes it,
/// deleted objects read afterwards, to-many order through many saves and reopens.
@Suite struct AppUsageTests {
    @Test(arguments: ModelBackend.all) func aFailedSaveLeavesEverythingAsBeforeAndTheFixedSaveWorks(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        let setup = ModelContext(container)
        let rome = Trip(name: "Rome", destination: "Italy")
        rome.bucketList = [BucketListItem(title: "Colosseum"), BucketListItem(title: "Forum")]
        let paris = Trip(name: "Paris", destination: "France")
        setup.insert(rome)
        setup.insert(paris)
        try setup.save()

        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let (storedParis, storedRome) = (trips[0], trips[1])
        storedParis.destination = "Île-de-France"
        let duplicate = Trip(name: "Rome", destination: "Lazio")
        let pantheon = BucketListItem(title: "Pantheon")
        duplicate.bucketList.append(pantheon)
        context.insert(duplicate)
        let moved = storedRome.bucketList[1]
        moved.trip = storedParis
        context.delete(storedRome.bucketList[0])
        #expect(throws: StrataError.self) { try context.save() }

        // The store is unchanged.
        func stored() throws -> [String] {
            try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
                .map { "\($0.name)/\($0.destination)/" + $0.bucketList.map(\.title).joined(separator: "+") }
        }
        #expect(try stored() == ["Paris/France/", "Rome/Italy/Colosseum+Forum"], "\(backend): the failed save changed nothing")
        // The context still holds every change.
        #expect(context.hasChanges)
        #expect(duplicate.persistentModelID.isTemporary && pantheon.trip === duplicate)
        #expect(storedParis.destination == "Île-de-France" && moved.trip === storedParis)
        #expect(storedParis.bucketList.map(\.title) == ["Forum"], "\(backend): the in-memory inverse is kept")
        #expect(context.deletedModelsArray.count == 1 && context.insertedModelsArray.count == 2)

        duplicate.name = "Rome 2"
        try context.save()
        #expect(!context.hasChanges && !duplicate.persistentModelID.isTemporary)
        #expect(try stored() == ["Paris/Île-de-France/Forum", "Rome/Italy/", "Rome 2/Lazio/Pantheon"], "\(backend): the fixed save wrote everything")
        let reopened = try fixture.open()
        let again = try ModelContext(reopened).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(again.map { "\($0.name)/" + $0.bucketList.map(\.title).joined(separator: "+") } == ["Paris/Forum", "Rome/", "Rome 2/Pantheon"], "\(backend): after reopen")
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<BucketListItem>()) == 2)
    }

    @Test(arguments: ModelBackend.all) func aDeletedObjectReadsItsLastValues(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let trip = Trip(name: "Oslo", destination: "Norway")
        trip.bucketList = [BucketListItem(title: "Fjord")]
        context.insert(trip)
        try context.save()
        let item = trip.bucketList[0]
        context.delete(trip)
        #expect(trip.isDeleted && trip.name == "Oslo")
        #expect(try context.fetch(FetchDescriptor<Trip>()).isEmpty, "\(backend): a pending delete leaves fetches")
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
        try context.save()
        #expect(trip.isDeleted && item.isDeleted, "\(backend): the cascade marks the item deleted")
        #expect(trip.name == "Oslo" && trip.destination == "Norway" && item.title == "Fjord", "\(backend): deleted objects keep their last values")
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        context.insert(Trip(name: "Oslo", destination: "again"))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.destination) == ["again"], "\(backend): a deleted unique value is free")
    }

    @Test(arguments: ModelBackend.all) func rollbackAfterInsertDeleteAndRelationshipChanges(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let trip = Trip(name: "Lima", destination: "Peru")
        trip.bucketList = [BucketListItem(title: "a"), BucketListItem(title: "b"), BucketListItem(title: "c")]
        let other = Trip(name: "Cusco", destination: "Peru")
        context.insert(trip)
        context.insert(other)
        try context.save()
        let (a, b, c) = (trip.bucketList[0], trip.bucketList[1], trip.bucketList[2])
        trip.bucketList.swapAt(0, 2)
        b.trip = other
        let d = BucketListItem(title: "d")
        other.bucketList.insert(d, at: 0)
        context.delete(c)
        #expect(trip.bucketList.map(\.title) == ["a"] || trip.bucketList.map(\.title) == ["c", "a"])
        context.rollback()
        #expect(trip.bucketList.map(\.title) == ["a", "b", "c"], "\(backend): order back")
        #expect(other.bucketList.isEmpty && b.trip === trip && a.trip === trip && c.trip === trip && !c.isDeleted)
        #expect(d.modelContext == nil)
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 3)
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map { $0.bucketList.map(\.title) } == [[], ["a", "b", "c"]])
    }

    /// Reorders, moves and removals over many saves; the order is kept through every reopen.
    @Test(arguments: ModelBackend.all) func toManyOrderThroughManySavesAndReopens(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        var expected: [String: [String]] = ["A": [], "B": []]
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var counter = 0
        for round in 0..<6 {
            let container = try fixture.open()
            let context = ModelContext(container)
            var trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            if trips.isEmpty {
                for name in ["A", "B"] { context.insert(Trip(name: name, destination: "x")) }
                try context.save()
                trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            }
            let byName = Dictionary(uniqueKeysWithValues: trips.map { ($0.name, $0) })
            for (name, trip) in byName {
                #expect(trip.bucketList.map(\.title) == expected[name], "\(backend) round \(round): \(name) after reopen")
            }
            for _ in 0..<25 {
                let name = next(2) == 0 ? "A" : "B", otherName = name == "A" ? "B" : "A"
                let trip = byName[name]!, otherTrip = byName[otherName]!
                switch next(5) {
                case 0, 1:
                    counter += 1
                    let item = BucketListItem(title: "i\(counter)")
                    let at = next(trip.bucketList.count + 1)
                    trip.bucketList.insert(item, at: at)
                    expected[name]!.insert(item.title, at: at)
                case 2 where trip.bucketList.count > 1:
                    let from = next(trip.bucketList.count), to = next(trip.bucketList.count)
                    trip.bucketList.swapAt(from, to)
                    expected[name]!.swapAt(from, to)
                case 3 where !trip.bucketList.isEmpty:
                    let at = next(trip.bucketList.count)
                    let item = trip.bucketList[at]
                    item.trip = otherTrip
                    expected[name]!.remove(at: at)
                    expected[otherName]!.append(item.title)
                case 4 where !trip.bucketList.isEmpty:
                    let at = next(trip.bucketList.count)
                    context.delete(trip.bucketList[at])
                    expected[name]!.remove(at: at)
                    try context.save()  // a saved object leaves its lists when the delete is saved
                default: break
                }
                if next(3) == 0 { try context.save() }
            }
            try context.save()
            for (name, trip) in byName {
                #expect(trip.bucketList.map(\.title) == expected[name], "\(backend) round \(round): \(name) after save")
            }
        }
    }

    @Test(arguments: ModelBackend.all) func fetchWindowsAndCountsWithPendingChanges(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        for n in 0..<10 { context.insert(Trip(name: String(format: "t%02d", n), destination: n % 2 == 0 ? "even" : "odd")) }
        try context.save()
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        context.delete(trips[0])
        context.delete(trips[3])
        trips[9].name = "a-first"
        context.insert(Trip(name: "t045", destination: "even"))
        var window = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        window.fetchOffset = 1
        window.fetchLimit = 4
        #expect(try context.fetch(window).map(\.name) == ["t01", "t02", "t04", "t045"], "\(backend)")
        #expect(try context.fetchCount(window) == 4)
        #expect(try context.fetchIdentifiers(window).count == 4)
        var evens = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "even" }, sortBy: [SortDescriptor(\.name, order: .reverse)])
        #expect(try context.fetchCount(evens) == 5, "\(backend): t02 t04 t045 t06 t08")
        evens.fetchLimit = 2
        #expect(try context.fetch(evens).map(\.name) == ["t08", "t06"])
        evens.includePendingChanges = false
        evens.fetchLimit = nil
        #expect(try context.fetchCount(evens) == 5, "\(backend): the store alone: t00 t02 t04 t06 t08")
    }

    /// Inserts, updates and deletes over many saves, large enough to fold a journal, with reopens
    /// between them; each reopen reads exactly what was saved.
    @Test(arguments: ModelBackend.all) func reopenAfterManySaves(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        var expected: [String: String] = [:]
        var n = 0
        for round in 0..<3 {
            let context = ModelContext(try fixture.open())
            let stored = try context.fetch(FetchDescriptor<BucketListItem>())
            #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.title, $0.details) }) == expected, "\(backend) round \(round): the reopened store")
            var byTitle = Dictionary(uniqueKeysWithValues: stored.map { ($0.title, $0) })
            for _ in 0..<40 {
                n += 1
                let big = String(repeating: "\(n % 10)", count: 12_000 + n)
                switch n % 4 {
                case 0, 1:
                    let item = BucketListItem(title: "item \(n)")
                    item.details = big
                    context.insert(item)
                    byTitle[item.title] = item
                    expected[item.title] = big
                case 2:
                    if let title = expected.keys.sorted().first { byTitle[title]!.details = big; expected[title] = big }
                default:
                    if let title = expected.keys.sorted().last { context.delete(byTitle.removeValue(forKey: title)!); expected[title] = nil }
                }
                try context.save()
            }
        }
        let context = ModelContext(try fixture.open())
        let stored = try context.fetch(FetchDescriptor<BucketListItem>())
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.title, $0.details) }) == expected, "\(backend): the last reopen")
    }
}
