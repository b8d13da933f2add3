import Foundation
import StrataModel
import Testing

/// SwiftData's migration API on every built-in backend: a v1 store opened by v2 and v3 of the app,
/// custom stages' code before and after the schema change, and all or nothing when a stage fails.
@Suite struct MigrationPlanTests {
    private static func day(_ n: Int) -> Date { Date(timeIntervalSinceReferenceDate: Double(n) * 86_400) }

    /// Writes the v1 trips store: two trips named "Rome" (one item each) and one "Oslo".
    private static func writeTripsV1(_ fixture: MigrationFixture) throws {
        typealias V1 = SampleTripsSchemaV1
        let context = ModelContext(try fixture.open(V1.self, plan: SampleTripsMigrationPlan.self))
        for (n, (name, item)) in [("Rome", "Colosseum"), ("Oslo", "Fjord"), ("Rome", "Pantheon")].enumerated() {
            let trip = V1.Trip(name: name, destination: name, start_date: day(n), end_date: day(n + 3))
            context.insert(trip)
            trip.bucketList.append(V1.BucketListItem(title: item))
        }
        try context.save()
    }

    @Test(arguments: MigrationBackend.all) func sampleTripsChainV1toV3(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeTripsV1(fixture)
        typealias V3 = SampleTripsSchemaV3
        // v3 of the app on the v1 store: the custom stage dedupes, the lightweight one renames.
        do {
            let container = try fixture.open(V3.self, plan: SampleTripsMigrationPlan.self)
            #expect(container.migrationPlan == SampleTripsMigrationPlan.self)
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<V3.Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.map(\.name) == ["Oslo", "Rome"])
            #expect(trips.map(\.startDate) == [Self.day(1), Self.day(0)])
            #expect(trips.map(\.endDate) == [Self.day(4), Self.day(3)])
            #expect(trips[1].bucketList.map(\.title).sorted() == ["Colosseum", "Pantheon"])
            // The unique constraint of v2 holds from now on.
            context.insert(V3.Trip(name: "Rome", destination: "Italy", startDate: Self.day(9), endDate: Self.day(10)))
            #expect(throws: StrataError.self) { try context.save() }
        }
        // Opening again is no work: the store is at 3.0.0.
        let context = ModelContext(try fixture.open(V3.self, plan: SampleTripsMigrationPlan.self))
        #expect(try context.fetchCount(FetchDescriptor<V3.BucketListItem>()) == 3)
    }

    @Test(arguments: MigrationBackend.all) func appVersionsOneAtATime(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeTripsV1(fixture)
        do {
            let context = ModelContext(try fixture.open(SampleTripsSchemaV2.self, plan: SampleTripsMigrationPlan.self))
            #expect(try context.fetch(FetchDescriptor<SampleTripsSchemaV2.Trip>()).map(\.name).sorted() == ["Oslo", "Rome"])
        }
        let context = ModelContext(try fixture.open(SampleTripsSchemaV3.self, plan: SampleTripsMigrationPlan.self))
        #expect(try context.fetch(FetchDescriptor<SampleTripsSchemaV3.Trip>()).map(\.startDate).sorted() == [Self.day(0), Self.day(1)])
    }

    /// A `PersistentIdentifier` saved before a migration names the same record after it: through a
    /// staged custom stage and through a single lightweight one (keys are never renumbered).
    @Test(arguments: MigrationBackend.all) func identifiersSurviveMigrations(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeTripsV1(fixture)
        let before = try ModelContext(fixture.open(SampleTripsSchemaV1.self, plan: SampleTripsMigrationPlan.self))
            .fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>(sortBy: [SortDescriptor(\.start_date)]))
        let saved = Dictionary(before.map { ($0.start_date, $0.persistentModelID) }, uniquingKeysWith: { first, _ in first })
        #expect(saved.count == 3)
        // v1 → v2: the custom stage deletes the second Rome; the other two keep their identifiers.
        do {
            let context = ModelContext(try fixture.open(SampleTripsSchemaV2.self, plan: SampleTripsMigrationPlan.self))
            let trips = try context.fetch(FetchDescriptor<SampleTripsSchemaV2.Trip>())
            #expect(Dictionary(uniqueKeysWithValues: trips.map { ($0.start_date, $0.persistentModelID) }) == saved.filter { $0.key != Self.day(2) })
            let osloID = try #require(saved[Self.day(1)])
            let oslo = try #require(context.model(for: osloID) as? SampleTripsSchemaV2.Trip)
            #expect(oslo.name == "Oslo")
        }
        // v2 → v3: one lightweight stage, the store's own migration.
        let context = ModelContext(try fixture.open(SampleTripsSchemaV3.self, plan: SampleTripsMigrationPlan.self))
        let trips = try context.fetch(FetchDescriptor<SampleTripsSchemaV3.Trip>())
        #expect(Dictionary(uniqueKeysWithValues: trips.map { ($0.startDate, $0.persistentModelID) }) == saved.filter { $0.key != Self.day(2) })
        let romeID = try #require(saved[Self.day(0)])
        let rome = try #require(context.model(for: romeID) as? SampleTripsSchemaV3.Trip)
        #expect(rome.name == "Rome")
        #expect(rome.bucketList.map(\.title).sorted() == ["Colosseum", "Pantheon"])
    }

    @Test(arguments: MigrationBackend.all) func didMigrateFillsAndMovesThroughRelationships(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        do {
            let context = ModelContext(try fixture.open(PeopleSchemaV1.self, plan: PeopleMigrationPlan.self))
            for (name, city) in [("Ada", "London"), ("Alan", "London"), ("Grace", "New York")] {
                context.insert(PeopleSchemaV1.Person(name: name, city: city))
            }
            try context.save()
        }
        typealias V3 = PeopleSchemaV3
        let context = ModelContext(try fixture.open(V3.self, plan: PeopleMigrationPlan.self))
        let people = try context.fetch(FetchDescriptor<V3.Person>(sortBy: [SortDescriptor(\.name)]))
        #expect(people.map(\.nickname) == ["ada", "alan", "grace"])
        #expect(people.map { $0.home?.name } == ["London", "London", "New York"])
        let cities = try context.fetch(FetchDescriptor<V3.City>(sortBy: [SortDescriptor(\.name)]))
        #expect(cities.map(\.name) == ["London", "New York"])
        #expect(cities[0].residents.map(\.name).sorted() == ["Ada", "Alan"])
    }

    /// `@Relationship(originalName:)` renames a relationship (its links kept, through the renamed
    /// inverse too), and a removed unique constraint admits duplicates: v1 → v2 → v3 → v4.
    @Test(arguments: MigrationBackend.all) func aRelationshipRenamedByOriginalNameKeepsItsLinks(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        do {
            let context = ModelContext(try fixture.open(PeopleSchemaV1.self, plan: PeopleV4MigrationPlan.self))
            for (name, city) in [("Ada", "London"), ("Alan", "London"), ("Grace", "New York")] {
                context.insert(PeopleSchemaV1.Person(name: name, city: city))
            }
            try context.save()
        }
        typealias V4 = PeopleSchemaV4
        let context = ModelContext(try fixture.open(V4.self, plan: PeopleV4MigrationPlan.self))
        let people = try context.fetch(FetchDescriptor<V4.Person>(sortBy: [SortDescriptor(\.name)]))
        #expect(people.map { $0.town?.name } == ["London", "London", "New York"], "\(backend): the renamed to-one")
        let cities = try context.fetch(FetchDescriptor<V4.City>(sortBy: [SortDescriptor(\.name)]))
        #expect(cities.map { $0.residents.map(\.name).sorted() } == [["Ada", "Alan"], ["Grace"]], "\(backend): its inverse")
        // City.name is no longer unique: a second London saves.
        context.insert(V4.City(name: "London"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<V4.City>()) == 3)
    }

    @Test(arguments: MigrationBackend.all) func aThrowingStageLeavesTheOldStore(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeTripsV1(fixture)
        let plans: [(FailingPlan.Where, any SchemaMigrationPlan.Type)] = [(.willMigrate, FailingInWillMigratePlan.self), (.didMigrate, FailingInDidMigratePlan.self)]
        for (failing, plan) in plans {
            #expect(throws: FailingPlan.Failure.self) { try fixture.open(FailingSchemaV2.self, plan: plan) }
            // The v1 app still reads its store as it wrote it.
            let context = ModelContext(try fixture.open(SampleTripsSchemaV1.self, plan: SampleTripsMigrationPlan.self))
            let trips = try context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>())
            #expect(trips.map(\.name).sorted() == ["Oslo", "Rome", "Rome"], "after a failing \(failing)")
            #expect(try context.fetchCount(FetchDescriptor<SampleTripsSchemaV1.BucketListItem>()) == 3)
        }
    }

    @Test func swiftDataConfigurationAndSchema() throws {
        let fixture = try MigrationFixture(MigrationBackend.all[0])
        let url = fixture.directory.appendingPathComponent("trips.json")
        do {
            let container = try ModelContainer(for: SampleTripsSchemaV1.Trip.self, migrationPlan: SampleTripsMigrationPlan.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(SampleTripsSchemaV1.Trip(name: "Rome", destination: "Italy", start_date: Self.day(0), end_date: Self.day(2)))
            context.insert(SampleTripsSchemaV1.Trip(name: "Rome", destination: "Italy", start_date: Self.day(5), end_date: Self.day(6)))
            try context.save()
        }
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        #expect(schema.version == Schema.Version(3, 0, 0))
        #expect(schema.entity(named: "Trip")?.attributes.map(\.name).contains("startDate") == true)
        let container = try ModelContainer(for: schema, migrationPlan: SampleTripsMigrationPlan.self, configurations: ModelConfiguration(url: url))
        #expect(container.migrationPlan == SampleTripsMigrationPlan.self)
        let trips = try ModelContext(container).fetch(FetchDescriptor<SampleTripsSchemaV3.Trip>())
        #expect(trips.map(\.startDate) == [Self.day(0)])
    }
}
