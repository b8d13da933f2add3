import Foundation
import StrataModel
import Testing

// One shipped version of an app (1.0.0) whose next release changed a literal default without a
// new version identifier, as SwiftData allows (its version hashes leave defaults out).

enum FlagsSchemaShipped: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Flag.self] }
    @Model final class Flag {
        var name: String
        var isOn: Bool = false
        init(name: String) { self.name = name }
    }
}

enum FlagsSchemaNewDefault: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Flag.self] }
    @Model final class Flag {
        var name: String
        var isOn: Bool = true
        init(name: String) { self.name = name }
    }
}

/// Another change under the same version identifier: still refused.
enum FlagsSchemaNewProperty: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Flag.self] }
    @Model final class Flag {
        var name: String
        var isOn: Bool = false
        var note: String?
        init(name: String) { self.name = name }
    }
}

enum FlagsShippedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [FlagsSchemaShipped.self] }
    static var stages: [MigrationStage] { [] }
}

enum FlagsNewDefaultPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [FlagsSchemaNewDefault.self] }
    static var stages: [MigrationStage] { [] }
}

enum FlagsNewPropertyPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [FlagsSchemaNewProperty.self] }
    static var stages: [MigrationStage] { [] }
}

/// A default changed under the app's own version opens, as in SwiftData, on every backend.
@Suite struct DefaultChangedInPlaceTests {
    @Test(arguments: MigrationBackend.all) func aDefaultChangedWithoutANewVersionOpens(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        do {
            let context = ModelContext(try fixture.open(FlagsSchemaShipped.self, plan: FlagsShippedPlan.self))
            let dark = FlagsSchemaShipped.Flag(name: "dark")
            dark.isOn = true
            context.insert(dark)
            context.insert(FlagsSchemaShipped.Flag(name: "beta"))
            try context.save()
        }
        do {
            let context = ModelContext(try fixture.open(FlagsSchemaNewDefault.self, plan: FlagsNewDefaultPlan.self))
            let flags = try context.fetch(FetchDescriptor<FlagsSchemaNewDefault.Flag>(sortBy: [SortDescriptor(\.name)]))
            #expect(flags.map(\.isOn) == [false, true], "\(backend): stored values kept")
            context.insert(FlagsSchemaNewDefault.Flag(name: "new"))
            try context.save()
        }
        // Recorded: the next launch is no work, even read-only.
        let read = try ModelContext(fixture.openReadOnly(FlagsSchemaNewDefault.self, plan: FlagsNewDefaultPlan.self))
        #expect(try read.fetch(FetchDescriptor<FlagsSchemaNewDefault.Flag>(sortBy: [SortDescriptor(\.name)])).map(\.isOn) == [false, true, true], "\(backend)")
        // Any other change under that version number is still refused.
        do {
            _ = try fixture.open(FlagsSchemaNewProperty.self, plan: FlagsNewPropertyPlan.self)
            Issue.record("\(backend): no error; expected schemaMismatch")
        } catch let error as StrataError {
            #expect(error.code == .schemaMismatch && error.message.contains("is not the schema of FlagsSchemaNewProperty (1.0.0)"), "\(backend): \(error)")
        }
    }
}
