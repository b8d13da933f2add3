import Foundation
import StrataModel
import Testing

@Suite struct UniqueAndConflictTests {
    @Test(arguments: ModelBackend.all) func uniqueCollisionIsLoud(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let first = Trip(name: "Rome", destination: "Italy")
        context.insert(first)
        try context.save()
        let duplicate = Trip(name: "Rome", destination: "Elsewhere")
        context.insert(duplicate)
        do {
            try context.save()
            Issue.record("a duplicate unique name was saved")
        } catch let error as StrataError {
            #expect(error.code == .uniqueConstraintViolation)
            #expect(error.identifiers.first == first.persistentModelID, "the error names the existing record")
        }
        context.rollback()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Trip>())
        #expect(stored.map(\.destination) == ["Italy"], "nothing was overwritten")

        // A composite #Unique with a to-one part.
        let user = User(email: "u@example.com", name: "U")
        context.insert(Shelf(label: "A", owner: user))
        try context.save()
        context.insert(Shelf(label: "A", owner: user))
        #expect(throws: StrataError.self) { try context.save() }
        context.rollback()
    }

    @Test(arguments: ModelBackend.all) func explicitUpsert(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try fixture.open())
        let original = Trip(name: "Rome", destination: "Italy")
        context.insert(original)
        try context.save()

        let other = ModelContext(context.container)
        let result = try other.upsert(Trip(name: "Rome", destination: "Lazio"))
        #expect(result.persistentModelID == original.persistentModelID, "the upsert resolved to the stored record")
        let fresh = try other.upsert(Trip(name: "Milan", destination: "Lombardy"))
        #expect(fresh.persistentModelID.isTemporary)
        try other.save()
        let trips = try ModelContext(context.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.name)]))
        #expect(trips.map(\.name) == ["Milan", "Rome"])
        #expect(trips.map(\.destination) == ["Lombardy", "Lazio"])
    }

    @Test(arguments: ModelBackend.all) func twoContextsEditDifferentProperties(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        let setup = ModelContext(container)
        setup.insert(Trip(name: "Rome", destination: "Italy"))
        try setup.save()

        let a = ModelContext(container), b = ModelContext(container)
        let tripA = try #require(try a.fetch(FetchDescriptor<Trip>()).first)
        let tripB = try #require(try b.fetch(FetchDescriptor<Trip>()).first)
        #expect(tripA !== tripB, "each context has its own object")
        tripA.destination = "Lazio"
        tripB.endDate = Date(timeIntervalSince1970: 999_999)
        try a.save()
        try b.save()
        #expect(tripB.destination == "Lazio", "the save refreshed what the other context changed")
        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.destination == "Lazio")
        #expect(stored.endDate == Date(timeIntervalSince1970: 999_999))

        // Same property: the later save wins by default…
        tripA.name = "Roma"
        tripB.name = "Rom"
        try a.save()
        try b.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first?.name == "Rom")

        // …and is an error with the opt-in check.
        b.checksConflicts = true
        tripA.name = "First"
        tripB.name = "Second"
        try a.save()
        do {
            try b.save()
            Issue.record("a conflicting save went through with checksConflicts")
        } catch let error as StrataError {
            #expect(error.code == .writeConflict)
            #expect(error.properties == ["name"])
        }
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first?.name == "First")
    }
}
