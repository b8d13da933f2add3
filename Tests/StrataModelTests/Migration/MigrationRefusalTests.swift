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

    @Test(arguments: MigrationBackend.all) func noStageFromTheStoresVersion(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        Self.expectRefusal(.schemaMismatch, ["PeopleSchemaV1 (1.0.0)", "PeopleSchemaV3 (3.0.0)", "NoStageFromV1Plan has no stage from PeopleSchemaV1 (1.0.0)"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: NoStageFromV1Plan.self)
        }
        try Self.expectV1Intact(fixture)
    }

    @Test(arguments: MigrationBackend.all) func stagesGoingRoundInACircle(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        Self.expectRefusal(.invalidSchema, ["CirclePlan", "go round in a circle at PeopleSchemaV1 (1.0.0)", "never reach PeopleSchemaV3 (3.0.0)"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: CirclePlan.self)
        }
        try Self.expectV1Intact(fixture)
    }

    /// A store at a version above every version the plan lists (an older app on a newer store).
    @Test(arguments: MigrationBackend.all) func storeNewerThanEveryListedVersion(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        _ = try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        Self.expectRefusal(.schemaMismatch, ["version 3.0.0", "newer than this app's PeopleSchemaV2 (2.0.0)", "UpToV2Plan knows versions up to 2.0.0", "newer version of the app"]) {
            _ = try fixture.open(PeopleSchemaV2.self, plan: UpToV2Plan.self)
        }
        let context = ModelContext(try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self))
        #expect(try context.fetchCount(FetchDescriptor<PeopleSchemaV3.Person>()) == 2)
    }

    /// A store recorded at 2.0.0 by another app's models: the plan's 2.0.0 has another schema.
    @Test(arguments: MigrationBackend.all) func versionNumberWithAnotherSchema(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        do {
            let context = ModelContext(try fixture.open(PeopleCityAsNumber.self, plan: OnlyCityAsNumberPlan.self))
            context.insert(PeopleCityAsNumber.Person(name: "Ada", city: 1))
            try context.save()
        }
        Self.expectRefusal(.schemaMismatch, ["version 2.0.0", "is not the schema of PeopleSchemaV2 (2.0.0)", "PeopleMigrationPlan", "PeopleSchemaV3 (3.0.0)"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        }
        let context = ModelContext(try fixture.open(PeopleCityAsNumber.self, plan: OnlyCityAsNumberPlan.self))
        #expect(try context.fetch(FetchDescriptor<PeopleCityAsNumber.Person>()).map(\.city) == [1])
    }

    @Test(arguments: MigrationBackend.all) func aReadOnlyContainerDoesNotMigrate(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        try Self.writePeople(fixture)
        Self.expectRefusal(.readOnlyStore, ["PeopleSchemaV1 (1.0.0)", "PeopleSchemaV3 (3.0.0)", "a read-only container cannot migrate it"]) {
            _ = try fixture.openReadOnly(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        }
        try Self.expectV1Intact(fixture)
        // Read-only at its own version, it opens.
        let context = ModelContext(try fixture.openReadOnly(PeopleSchemaV1.self, plan: PeopleMigrationPlan.self))
        #expect(try context.fetchCount(FetchDescriptor<PeopleSchemaV1.Person>()) == 2)
    }

    /// A store written before versions were recorded (Tests/Fixtures/LegacyStores, the fixture
    /// domain's schema) is the schema of no version in the plan: refused, its files untouched.
    @Test(arguments: MigrationBackend.all.filter { ["sqlite", "json", "csv", "xml", "lmdb"].contains($0.name) })
    func aLegacyStoreOfNoVersion(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        let legacy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/LegacyStores/\(backend.name)")
        let files = FileManager.default
        for name in try files.contentsOfDirectory(atPath: legacy.path) {
            try files.copyItem(at: legacy.appendingPathComponent(name), to: fixture.directory.appendingPathComponent(name))
        }
        let before = try Self.contents(fixture.directory)
        Self.expectRefusal(.schemaMismatch, ["recorded only its schema's fingerprint", "no version in migration plan PeopleMigrationPlan", "PeopleSchemaV3 (3.0.0)"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        }
        #expect(try Self.contents(fixture.directory) == before, "\(backend): the refusal changed the store's files")
    }

    /// Every data file under `folder` (not SQLite's -wal/-shm or LMDB's lock file, which a reader
    /// may touch), by path relative to it.
    private static func contents(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return result }
        for case let url as URL in walker where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            let name = url.lastPathComponent
            if name.hasSuffix("-wal") || name.hasSuffix("-shm") || name == "lock.mdb" { continue }
            result[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
        return result
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
        Self.expectRefusal(.invalidSchema, ["EmptySchemasPlan", "schemas is empty"]) {
            _ = try fixture.open(PeopleSchemaV1.self, plan: EmptySchemasPlan.self)
        }
        Self.expectRefusal(.invalidSchema, ["SelfStagePlan", "stage goes from PeopleSchemaV1 (1.0.0) to itself"]) {
            _ = try fixture.open(PeopleSchemaV2.self, plan: SelfStagePlan.self)
        }
        Self.expectRefusal(.invalidSchema, ["TwoWaysPlan", "two stages leave PeopleSchemaV1 (1.0.0) (to PeopleSchemaV2 (2.0.0) and to PeopleSchemaV3 (3.0.0))", "one way forward"]) {
            _ = try fixture.open(PeopleSchemaV3.self, plan: TwoWaysPlan.self)
        }
    }
}
