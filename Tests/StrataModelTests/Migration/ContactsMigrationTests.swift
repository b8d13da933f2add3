import Foundation
import StrataModel
import Testing

/// The contacts plan (`ContactsSchemas.swift`) on every built-in backend: a custom stage that
/// reads in `willMigrate` and writes in `didMigrate`, an optional property made required, a
/// composite unique constraint added after deduplicating, values of every kind kept.
@Suite struct ContactsMigrationTests {
    private static let born = [Date(timeIntervalSinceReferenceDate: -1_000_000.25), Date(timeIntervalSinceReferenceDate: 86_400.5), Date(timeIntervalSinceReferenceDate: 7_000_000), Date(timeIntervalSinceReferenceDate: 9_000_000)]
    private static let tokens = [UUID(), UUID(), UUID(), UUID()]

    /// A v1 store: Ada Lovelace twice (the second with a phone), Grace Hopper without a rating,
    /// one person without a name (with a phone).
    private static func writeV1(_ fixture: MigrationFixture, plan: any SchemaMigrationPlan.Type) throws {
        typealias V1 = ContactsSchemaV1
        let context = ModelContext(try fixture.open(V1.self, plan: plan))
        let rows: [(String, Int?, Data?, URL?, PortedPriority, [Double], [String])] = [
            ("Ada Lovelace", 5, Data([0, 1, 2, 255]), URL(string: "https://example.org/ada"), .high, [1.5, -0.0, 1e300], ["+44 1"]),
            ("Grace Hopper", nil, nil, nil, .low, [], ["+1 2", "+1 3"]),
            ("Ada Lovelace", 4, Data(), nil, .normal, [2], ["+44 4"]),
            ("", 1, nil, nil, .normal, [], ["+0 0"]),
        ]
        for (n, row) in rows.enumerated() {
            let person = V1.Person(name: row.0, rating: row.1, born: born[n], photo: row.2, token: tokens[n], site: row.3, priority: row.4, address: ContactAddress(street: "Street \(n)", zip: 1000 + n), scores: row.5)
            context.insert(person)
            for number in row.6 { person.phones.append(V1.Phone(number: number)) }
        }
        try context.save()
    }

    @Test(arguments: MigrationBackend.all) func aStageReadsInWillMigrateAndWritesInDidMigrate(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeV1(fixture, plan: ContactsMigrationPlan.self)
        typealias V3 = ContactsSchemaV3
        let context = ModelContext(try fixture.open(V3.self, plan: ContactsMigrationPlan.self))
        let people = try context.fetch(FetchDescriptor<V3.Person>(sortBy: [SortDescriptor(\.lastName)]))
        #expect(people.map(\.firstName) == ["Grace", "Ada"], "\(backend)")
        #expect(people.map(\.lastName) == ["Hopper", "Lovelace"], "\(backend)")
        #expect(people.map(\.rating) == [3, 5], "\(backend): filled in willMigrate, kept")
        #expect(people.map { $0.phones.map(\.number).sorted() } == [["+1 2", "+1 3"], ["+44 1", "+44 4"]], "\(backend): the duplicate's phone moved")
        #expect(try context.fetchCount(FetchDescriptor<V3.Phone>()) == 4, "\(backend): the nameless person's phone cascaded")
        // Every value as v1 wrote it.
        let grace = people[0], ada = people[1]
        #expect(ada.born == Self.born[0] && grace.born == Self.born[1], "\(backend)")
        #expect(ada.photo == Data([0, 1, 2, 255]) && grace.photo == nil, "\(backend)")
        #expect(ada.token == Self.tokens[0] && grace.token == Self.tokens[1], "\(backend)")
        #expect(ada.site == URL(string: "https://example.org/ada") && grace.site == nil, "\(backend)")
        #expect(ada.priority == .high && grace.priority == .low, "\(backend)")
        #expect(ada.address == ContactAddress(street: "Street 0", zip: 1000), "\(backend)")
        #expect(ada.scores.map(\.bitPattern) == [1.5, -0.0, 1e300].map(\.bitPattern) && grace.scores.isEmpty, "\(backend)")
        #expect(people.map(\.email) == [nil, nil], "\(backend)")
        // v3's unique constraint holds from now on.
        context.insert(V3.Person(firstName: "Ada", lastName: "Lovelace", rating: 1, born: .now, photo: nil, token: UUID(), site: nil, priority: .low, address: ContactAddress(street: "", zip: 0), scores: []))
        #expect(throws: StrataError.self, "\(backend)") { try context.save() }
    }

    /// `ModelContext`'s other calls inside the stages (`ContextInsideStagesPlan`) see and change
    /// the staged records as they would a store's.
    @Test(arguments: MigrationBackend.all) func contextCallsInsideStages(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeV1(fixture, plan: ContextInsideStagesPlan.self)
        let store = try #require(try ModelContext(fixture.open(ContactsSchemaV1.self, plan: ContextInsideStagesPlan.self)).fetchIdentifiers(FetchDescriptor<ContactsSchemaV1.Person>()).first).storeIdentifier
        typealias V3 = ContactsSchemaV3
        let context = ModelContext(try fixture.open(V3.self, plan: ContextInsideStagesPlan.self))
        let facts = ContextInsideStagesPlan.seen.withLock { $0[store] } ?? []
        #expect(facts == [
            "count 4", "ids 4", "enumerated Ada Lovelace,Grace Hopper,Ada Lovelace,", "batched 4", "model(for:) Ada Lovelace",
            "phones of rating 5 +44 1",
        ], "\(backend)")
        let people = try context.fetch(FetchDescriptor<V3.Person>(sortBy: [SortDescriptor(\.born)]))
        #expect(people.map(\.lastName) == ["Street 0", "K", "Street 1"], "\(backend): the duplicate and the nameless gone, Katherine inserted")
        #expect(people.map(\.rating) == [5, 2, 2], "\(backend)")
        #expect(try context.fetchCount(FetchDescriptor<V3.Phone>()) == 3, "\(backend): the deleted people's phones cascaded")
    }

    /// The same plan one version per launch: v2 of the app, then v3.
    @Test(arguments: MigrationBackend.all) func oneVersionPerLaunch(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeV1(fixture, plan: ContactsMigrationPlan.self)
        do {
            let context = ModelContext(try fixture.open(ContactsSchemaV2.self, plan: ContactsMigrationPlan.self))
            let people = try context.fetch(FetchDescriptor<ContactsSchemaV2.Person>(sortBy: [SortDescriptor(\.firstName)]))
            #expect(people.map(\.firstName) == ["Ada", "Grace"], "\(backend)")
            people[1].rating = 4
            try context.save()
        }
        let context = ModelContext(try fixture.open(ContactsSchemaV3.self, plan: ContactsMigrationPlan.self))
        let people = try context.fetch(FetchDescriptor<ContactsSchemaV3.Person>(sortBy: [SortDescriptor(\.firstName)]))
        #expect(people.map(\.rating) == [5, 4], "\(backend)")
        #expect(people.map(\.address.zip) == [1000, 1001], "\(backend)")
    }

    /// A plan that does not dedupe: the unique constraint of v3 fails the open with
    /// `uniqueConstraintViolation`, and v1 of the app still reads everything it wrote.
    @Test(arguments: MigrationBackend.all) func aUniqueConstraintTheDataViolates(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writeV1(fixture, plan: ContactsWithoutDedupePlan.self)
        do {
            _ = try fixture.open(ContactsSchemaV3.self, plan: ContactsWithoutDedupePlan.self)
            Issue.record("\(backend): no error; expected uniqueConstraintViolation")
        } catch let error as StrataError {
            #expect(error.code == .uniqueConstraintViolation && error.entity == "Person", "\(backend): \(error)")
        }
        let context = ModelContext(try fixture.open(ContactsSchemaV1.self, plan: ContactsWithoutDedupePlan.self))
        let people = try context.fetch(FetchDescriptor<ContactsSchemaV1.Person>(sortBy: [SortDescriptor(\.born)]))
        #expect(people.map(\.name) == ["Ada Lovelace", "Grace Hopper", "Ada Lovelace", ""], "\(backend)")
        #expect(people.map(\.rating) == [5, nil, 4, 1], "\(backend)")
        #expect(try context.fetchCount(FetchDescriptor<ContactsSchemaV1.Phone>()) == 5, "\(backend)")
        // And v2 of that app, whose path has no unique constraint, migrates.
        let v2 = try ModelContext(fixture.open(ContactsSchemaV2.self, plan: ContactsWithoutDedupePlan.self)).fetch(FetchDescriptor<ContactsSchemaV2.Person>())
        #expect(v2.map(\.lastName) == ["Lovelace", "Lovelace", "Lovelace", "Lovelace"], "\(backend)")
    }

    /// `static let models: [any PersistentModel.Type] = […]`, as SwiftData guides write it, is
    /// concurrency-safe because SwiftData's `PersistentModel` is `SendableMetatype`. Swift reports
    /// a non-`Sendable` metatype as a warning only, so the test asks overload resolution instead:
    /// in code generic over `PersistentModel`, the `SendableMetatype` overload is chosen only when
    /// the protocol refines it.
    @Test func modelTypesAreSendableMetatypes() {
        #expect(Self.kind(viaModel: ContactsSchemaV1.Person.self) == "SendableMetatype")
    }

    private static func kind<T: SendableMetatype>(_: T.Type) -> String { "SendableMetatype" }
    private static func kind<T>(_: T.Type) -> String { "not SendableMetatype" }
    private static func kind<T: PersistentModel>(viaModel type: T.Type) -> String { kind(type) }

    /// SwiftData's own configuration for a versioned schema: `ModelConfiguration(schema:url:)` and
    /// `ModelContainer(for: Schema(versionedSchema:), migrationPlan:, configurations: [...])`; the
    /// URL's extension picks the backend.
    @Test(arguments: ["store", "json", "xml", "lmdb", "csv"]) func swiftDataConfigurationOfAVersionedSchema(_ ext: String) throws {
        let fixture = try MigrationFixture(MigrationBackend.all[0])
        let url = fixture.directory.appendingPathComponent("contacts.\(ext)")
        do {
            let schema = Schema(versionedSchema: ContactsSchemaV1.self)
            let container = try ModelContainer(for: schema, migrationPlan: ContactsMigrationPlan.self, configurations: [ModelConfiguration(schema: schema, url: url)])
            let context = ModelContext(container)
            context.insert(ContactsSchemaV1.Person(name: "Ada Lovelace", rating: nil, born: Self.born[0], photo: nil, token: Self.tokens[0], site: nil, priority: .high, address: ContactAddress(street: "A", zip: 1), scores: [1]))
            try context.save()
        }
        let schema = Schema(versionedSchema: ContactsSchemaV3.self)
        let container = try ModelContainer(for: schema, migrationPlan: ContactsMigrationPlan.self, configurations: ModelConfiguration(schema: schema, url: url))
        let people = try ModelContext(container).fetch(FetchDescriptor<ContactsSchemaV3.Person>())
        #expect(people.map(\.lastName) == ["Lovelace"], ".\(ext)")
        #expect(people.map(\.rating) == [3], ".\(ext)")
    }
}
