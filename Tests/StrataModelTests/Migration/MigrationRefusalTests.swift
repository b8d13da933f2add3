import Foundation
import StrataModel
import Testing

/// Every refusal of a migration plan, with its message, on every built-in backend; a refused
/// migration leaves the store as the old app wrote it.
@Suite struct MigrationRefusalTests {
    /// Writes a v1 people store (two people) with `plan`'s app of `version`.
    private static func writePeople(_ fixture: MigrationFixture, _ version: any VersionedSchema.Type = PeopleSchemaV1.self, plan: (any SchemaMigrationPlan.Type)? = PeopleMigrationPlan.self) throws {
        let context = ModelContext(try fixture.open(version, plan: plan))
        if version == PeopleSchemaV1_5.self {
            context.insert(PeopleSchemaV1_5.Person(name: "Ada", city: "London"))
            context.insert(PeopleSchemaV1_5.Person(name: "Grace", city: "New York"))
        } else {
            context.insert(PeopleSchemaV1.Person(name: "Ada", city: "London"))
            context.insert(PeopleSchemaV1.Person(name: "Grace", city: "New York"))
        }
        try context.save()
    }

    /// The v1 app still reads both people.
    private static func expectV1Intact(_ fixture: MigrationFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(try fixture.open(PeopleSchemaV1.self, plan: PeopleMigrationPlan.self))
        let cities = try context.fetch(FetchDescriptor<PeopleSchemaV1.Person>(sortBy: [SortDescriptor(\.name)])).map(\.city)
        #expect(cities == ["London", "New York"], sourceLocation: sourceLocation)
    }

    /// The error `body` throws, which must be a `StrataError` of `code` whose message holds every piece.
    private static func expectRefusal(_ code: StrataError.Code, _ pieces: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error; expected \(code.rawValue)", sourceLocation: sourceLocation)
        } catch let error as StrataError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            for piece in pieces { #expect(error.message.contains(piece), "'\(piece)' not in: \(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("\(error); expected \(code.rawValue)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: MigrationBackend.all) func typeChangeInALightweightStage(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        Self.expectRefusal(.migrationRequired, ["PeopleSchemaV1 (1.0.0)", "PeopleCityAsNumber (2.0.0)", "Person.city", "lightweight stage", "MigrationStage.custom"]) {
            _ = try fixture.open(PeopleCityAsNumber.self, plan: TypeChangePlan.self)
        }
        try Self.expectV1Intact(fixture)
    }

    @Test(arguments: MigrationBackend.all) func requiredValueWithoutDefaultInALightweightStage(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        Self.expectRefusal(.migrationRequired, ["PeopleSchemaV1 (1.0.0)", "PeopleWithAge (2.0.0)", "Person.age", "MigrationStage.custom"]) {
            _ = try fixture.open(PeopleWithAge.self, plan: RequiredWithoutDefaultPlan.self)
        }
        try Self.expectV1Intact(fixture)
    }

    @Test(arguments: MigrationBackend.all) func storeAtAVersionThePlanDoesNotList(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture, PeopleSchemaV1_5.self, plan: OnlyV1_5Plan.self)
        Self.expectRefusal(.schemaMismatch, ["1.5.0", "PeopleSchemaV3 (3.0.0)", "does not list"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        }
        // Untouched: the 1.5.0 app still opens it.
        let context = ModelContext(try fixture.open(PeopleSchemaV1_5.self, plan: OnlyV1_5Plan.self))
        #expect(try context.fetchCount(FetchDescriptor<PeopleSchemaV1_5.Person>()) == 2)
    }

    @Test(arguments: MigrationBackend.all) func storeNewerThanTheApp(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        _ = try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        Self.expectRefusal(.schemaMismatch, ["3.0.0", "newer", "PeopleSchemaV2 (2.0.0)"]) {
            _ = try fixture.open(PeopleSchemaV2.self, plan: PeopleMigrationPlan.self)
        }
        let context = ModelContext(try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self))
        #expect(try context.fetchCount(FetchDescriptor<PeopleSchemaV3.Person>()) == 2)
    }

    @Test(arguments: MigrationBackend.all) func identicalSchemasInTwoVersions(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture, plan: IdenticalSchemasPlan.self)
        for _ in 0..<2 {  // the second open finds the store at 1.5.0 and runs nothing
            let context = ModelContext(try fixture.open(PeopleSchemaV1_5.self, plan: IdenticalSchemasPlan.self))
            let cities = try context.fetch(FetchDescriptor<PeopleSchemaV1_5.Person>(sortBy: [SortDescriptor(\.name)])).map(\.city)
            #expect(cities == ["London!", "New York!"])
        }
    }

    @Test func planValidation() throws {
        let fixture = try MigrationFixture(MigrationBackend.all[0])
        Self.expectRefusal(.invalidSchema, ["DuplicateVersionPlan", "PeopleCityAsNumber and PeopleWithAge both have version 2.0.0"]) {
            _ = try fixture.open(PeopleSchemaV1.self, plan: DuplicateVersionPlan.self)
        }
        Self.expectRefusal(.invalidSchema, ["UnlistedStagePlan", "PeopleSchemaV1_5, which schemas does not list"]) {
            _ = try fixture.open(PeopleSchemaV2.self, plan: UnlistedStagePlan.self)
        }
        Self.expectRefusal(.invalidSchema, ["are not the models of any version"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: TypeChangePlan.self)
        }
    }
}
