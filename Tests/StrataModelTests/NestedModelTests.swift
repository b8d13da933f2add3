import Foundation
import StrataModel
import Testing

/// Models declared inside a namespace, as a `VersionedSchema` declares its version's models.
enum NestedNamespace {
    @Model final class Trip {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
        init(name: String) { self.name = name }
    }

    @Model final class Stop {
        var title: String
        var trip: Trip?
        init(title: String) { self.title = title }
    }
}

@Suite struct NestedModelTests {
    @Test func entityNameIsTheBareTypeName() throws {
        #expect(NestedNamespace.Trip.entityName == "Trip")
        let schema = try Schema(models: [NestedNamespace.Trip.self])
        #expect(schema.entities.map(\.name).sorted() == ["Stop", "Trip"])
        #expect(schema.entity(named: "Trip")?.relationships.map(\.destination) == ["Stop"])
    }

    @Test(arguments: ModelBackend.all) func nestedModelsRoundTrip(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [NestedNamespace.Trip.self]
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            let trip = NestedNamespace.Trip(name: "Rome")
            context.insert(trip)
            trip.stops.append(NestedNamespace.Stop(title: "Colosseum"))
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        let stops = try context.fetch(FetchDescriptor<NestedNamespace.Stop>())
        #expect(stops.map(\.title) == ["Colosseum"])
        #expect(stops.first?.trip?.name == "Rome")
        #expect(stops.first?.persistentModelID.entityName == "Stop")
    }
}
