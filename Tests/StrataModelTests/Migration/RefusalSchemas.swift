import Foundation
import StrataModel

// Versions and plans that cannot work, or that look as if they could not: each refusal's test
// (MigrationRefusalTests) opens a store with one of them.

/// `Person.city` becomes an `Int`: a type change, which needs code.
enum PeopleCityAsNumber: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self] }
    @Model final class Person {
        var name: String
        var city: Int
        init(name: String, city: Int) {
            self.name = name
            self.city = city
        }
    }
}

/// `Person.age` is new and required, with no default: nothing to fill existing records with.
enum PeopleWithAge: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self] }
    @Model final class Person {
        var name: String
        var city: String
        var age: Int
        init(name: String, city: String, age: Int) {
            self.name = name
            self.city = city
            self.age = age
        }
    }
}

/// Version 1.5.0 of the people app: v1's schema under another version number.
enum PeopleSchemaV1_5: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 5, 0) }
    static var models: [any PersistentModel.Type] { [Person.self] }
    @Model final class Person {
        var name: String
        var city: String
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }
}

enum TypeChangePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleCityAsNumber.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PeopleSchemaV1.self, toVersion: PeopleCityAsNumber.self)] }
}

enum RequiredWithoutDefaultPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleWithAge.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PeopleSchemaV1.self, toVersion: PeopleWithAge.self)] }
}

/// Only version 1.5.0: the plan of the app that writes a 1.5.0 store.
enum OnlyV1_5Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1_5.self] }
    static var stages: [MigrationStage] { [] }
}

/// Two versions with the same identifier.
enum DuplicateVersionPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleCityAsNumber.self, PeopleWithAge.self] }
    static var stages: [MigrationStage] { [] }
}

/// A stage naming a version `schemas` does not list.
enum UnlistedStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PeopleSchemaV1_5.self, toVersion: PeopleSchemaV2.self)] }
}

/// Versions 1.0.0 and 1.5.0 have identical schemas (Core Data's "duplicate version checksum"); the
/// stage between them changes only data. It works: the store's recorded version tells them apart.
enum IdenticalSchemasPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV1_5.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: PeopleSchemaV1.self, toVersion: PeopleSchemaV1_5.self, willMigrate: nil, didMigrate: { context in
                for person in try context.fetch(FetchDescriptor<PeopleSchemaV1_5.Person>()) { person.city += "!" }
                try context.save()
            })
        ]
    }
}

/// Versions 1 to 3 with no stage leaving 1.0.0: a v1 store has no way to v3.
enum NoStageFromV1Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self, PeopleSchemaV3.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PeopleSchemaV2.self, toVersion: PeopleSchemaV3.self)] }
}

/// 1.0.0 → 2.0.0 → 1.0.0: a store at 1.0.0 never reaches 3.0.0.
enum CirclePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self, PeopleSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: PeopleSchemaV1.self, toVersion: PeopleSchemaV2.self, willMigrate: nil, didMigrate: nil),
            .custom(fromVersion: PeopleSchemaV2.self, toVersion: PeopleSchemaV1.self, willMigrate: nil, didMigrate: nil),
        ]
    }
}

/// No versions at all.
enum EmptySchemasPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [] }
    static var stages: [MigrationStage] { [] }
}

/// A stage from a version to itself.
enum SelfStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PeopleSchemaV1.self, toVersion: PeopleSchemaV1.self)] }
}

/// Two stages leaving 1.0.0.
enum TwoWaysPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self, PeopleSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: PeopleSchemaV1.self, toVersion: PeopleSchemaV2.self),
            .lightweight(fromVersion: PeopleSchemaV1.self, toVersion: PeopleSchemaV3.self),
        ]
    }
}

/// Versions 1 and 2 only: the app of an older release than a 3.0.0 store.
enum UpToV2Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self] }
    static var stages: [MigrationStage] { [] }
}

/// Only `PeopleCityAsNumber`, whose version number 2.0.0 is also `PeopleSchemaV2`'s.
enum OnlyCityAsNumberPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleCityAsNumber.self] }
    static var stages: [MigrationStage] { [] }
}
