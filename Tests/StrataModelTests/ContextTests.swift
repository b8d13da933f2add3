import Foundation
import StrataModel
import Testing

@Suite struct ContextTests {
    @Test(arguments: ModelBackend.all) func everyPropertyTypeRoundTrips(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let uuid = UUID()
        do {
            let context = ModelContext(try fixture.open())
            let sample = Sample(label: "full")
            sample.count = Int.min
            sample.small = -7
            sample.ratio = -0.0
            sample.flag = false
            sample.when = Date(timeIntervalSince1970: 1_234.567_891)
            sample.blob = Data([0, 1, 2, 255])
            sample.uuid = uuid
            sample.link = URL(string: "https://example.com/a?b=c")
            sample.note = "note ✓"
            sample.priority = .high
            sample.mood = .busy
            sample.location = Location(latitude: 41.9, longitude: 12.5, label: "Rome")
            sample.tags = ["a", "b,c", "\"q\""]
            sample.history = [.low, .high]
            context.insert(sample)
            context.insert(Sample(label: "defaults"))
            try context.save()
        }
        let context = ModelContext(try fixture.open())
        let samples = try context.fetch(FetchDescriptor<Sample>(sortBy: [SortDescriptor(\Sample.label)]))
        let defaults = samples[0], full = samples[1]
        #expect(defaults.label == "defaults" && defaults.count == 7 && defaults.ratio == 0.5 && defaults.flag && defaults.priority == .normal)
        #expect(defaults.note == nil && defaults.mood == nil && defaults.location == nil && defaults.tags.isEmpty)
        #expect(full.count == Int.min && full.small == -7 && full.ratio.sign == .minus && !full.flag)
        #expect(full.when == Date(timeIntervalSince1970: 1_234.567_891))
        #expect(full.blob == Data([0, 1, 2, 255]) && full.uuid == uuid && full.link == URL(string: "https://example.com/a?b=c"))
        #expect(full.note == "note ✓" && full.priority == .high && full.mood == .busy)
        #expect(full.location == Location(latitude: 41.9, longitude: 12.5, label: "Rome"))
        #expect(full.tags == ["a", "b,c", "\"q\""] && full.history == [.low, .high])
        #expect(try context.fetchCount(FetchDescriptor<Sample>(filter: .compare("priority", .equal, .int(2)))) == 1, "enums are stored by raw value")
    }

    @Test func schemaFollowsTheModels() throws {
        let schema = try Schema(models: [Trip.self, AuditLog.self])
        let trip = try #require(schema.entity(named: "Trip"))
        #expect(trip.attributes.map(\.name) == ["name", "destination", "startDate", "endDate"], "transient properties are not stored")
        #expect(trip.relationships.map(\.name) == ["bucketList", "livingAccommodation"])
        #expect(trip.uniqueConstraints.count == 1)
        #expect(schema.entity(named: "BucketListItem")?.relationships.first?.inverse == "bucketList")
        #expect(schema.entity(named: "LivingAccommodation")?.relationships.first?.inverse == "livingAccommodation", "an inverse declared on one side pairs both")
        #expect(schema.entity(named: "User")?.relationships.map(\.name).contains("AuditLog_user_inverse") == true, "a one-way relationship gets a hidden inverse")
        let sample = try #require(try Schema(models: [Sample.self]).entity(named: "Sample"))
        #expect(sample.attributes.first { $0.name == "count" }?.defaultValue == .int(7), "literal defaults are schema defaults")
        #expect(sample.attributes.first { $0.name == "when" }?.defaultValue == nil, "computed defaults are not")
        #expect(sample.attributes.first { $0.name == "location" }?.type == .string)
        #expect(Person.propertyName(for: \Person.last) == "last")
        #expect(Person.propertyName(for: \Person.friends) == "friends")
        let person = try #require(try Schema(models: [Person.self]).entity(named: "Person"))
        #expect(person.indexes.count == 1 && person.uniqueConstraints.count == 1)
    }

    @Test(arguments: ModelBackend.all) func enumerateBatchDeleteAndTransaction(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        for n in 0..<25 {
            let trip = Trip(name: "trip \(n)", destination: n % 2 == 0 ? "even" : "odd")
            trip.bucketList.append(BucketListItem(title: "item \(n)"))
            context.insert(trip)
        }
        try context.save()
        let reader = ModelContext(context.container)
        var names: [String] = []
        try reader.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.name)]), batchSize: 7) { names.append($0.name) }
        #expect(names.count == 25 && names == names.sorted())

        // The batch delete runs in the store, cascades included.
        try context.delete(model: Trip.self, where: .compare("destination", .equal, "even"))
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 12)
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 12)

        // A transaction that throws leaves nothing behind.
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try context.transaction {
                context.insert(Trip(name: "never", destination: "x"))
                throw Abort()
            }
        }
        #expect(!context.hasChanges)
        try context.transaction { context.insert(Trip(name: "kept", destination: "x")) }
        #expect(try context.fetchCount(FetchDescriptor<Trip>(filter: .compare("name", .equal, "kept"))) == 1)
    }

    @Test func observationSeesChanges() throws {
        let container = try ModelBackend.all[0].open(FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString), [Trip.self])
        let context = ModelContext(container)
        let trip = Trip(name: "Rome", destination: "Italy")
        context.insert(trip)
        let fired = Observed()
        withObservationTracking { _ = trip.destination } onChange: { fired.value = true }
        trip.destination = "Lazio"
        #expect(fired.value)
    }

    final class Observed: @unchecked Sendable { var value = false }

    @Test(arguments: ModelBackend.all) func changeNotifications(_ backend: ModelBackend) async throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        let changes = container.changes()
        let context = ModelContext(container)
        let trip = Trip(name: "Rome", destination: "Italy")
        context.insert(trip)
        try context.save()
        trip.destination = "Lazio"
        try context.save()
        context.delete(trip)
        try context.save()
        var iterator = changes.makeAsyncIterator()
        let first = await iterator.next(), second = await iterator.next(), third = await iterator.next()
        #expect(first?.inserted == [trip.persistentModelID])
        #expect(second?.updated == [trip.persistentModelID])
        #expect(third?.deleted == [trip.persistentModelID])
    }
}
