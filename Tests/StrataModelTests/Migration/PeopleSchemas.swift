import Foundation
import StrataModel

// A plan whose custom stage works in didMigrate: a new entity filled from an old attribute through a
// new relationship, and a new required attribute without a default set for every record; then a
// lightweight stage drops the old attribute.

enum PeopleSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
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

enum PeopleSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self, City.self] }

    @Model final class Person {
        var name: String
        var city: String
        var nickname: String
        var home: City?
        init(name: String, city: String, nickname: String) {
            self.name = name
            self.city = city
            self.nickname = nickname
        }
    }

    @Model final class City {
        @Attribute(.unique) var name: String
        @Relationship(inverse: \Person.home) var residents: [Person] = []
        init(name: String) { self.name = name }
    }
}

enum PeopleSchemaV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self, City.self] }

    @Model final class Person {
        var name: String
        var nickname: String
        var home: City?
        init(name: String, nickname: String) {
            self.name = name
            self.nickname = nickname
        }
    }

    @Model final class City {
        @Attribute(.unique) var name: String
        @Relationship(inverse: \Person.home) var residents: [Person] = []
        init(name: String) { self.name = name }
    }
}

enum PeopleMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PeopleSchemaV1.self, PeopleSchemaV2.self, PeopleSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: PeopleSchemaV1.self, toVersion: PeopleSchemaV2.self, willMigrate: nil, didMigrate: { context in
                var cities: [String: PeopleSchemaV2.City] = [:]
                for person in try context.fetch(FetchDescriptor<PeopleSchemaV2.Person>(sortBy: [SortDescriptor(\.name)])) {
                    let city = cities[person.city] ?? PeopleSchemaV2.City(name: person.city)
                    cities[person.city] = city
                    person.home = city
                    person.nickname = person.name.lowercased()
                }
                try context.save()
            }),
            .lightweight(fromVersion: PeopleSchemaV2.self, toVersion: PeopleSchemaV3.self),
        ]
    }
}

/// Version 4: `Person.home` renamed `town` with `@Relationship(originalName:)` (its inverse follows),
/// and `City.name` no longer unique. Both lightweight.
enum PeopleSchemaV4: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(4, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self, City.self] }

    @Model final class Person {
        var name: String
        var nickname: String
        @Relationship(originalName: "home") var town: City?
        init(name: String, nickname: String) {
            self.name = name
            self.nickname = nickname
        }
    }

    @Model final class City {
        var name: String
        @Relationship(inverse: \Person.town) var residents: [Person] = []
        init(name: String) { self.name = name }
    }
}

/// `PeopleMigrationPlan` and a lightweight stage to version 4.
enum PeopleV4MigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { PeopleMigrationPlan.schemas + [PeopleSchemaV4.self] }
    static var stages: [MigrationStage] {
        PeopleMigrationPlan.stages + [.lightweight(fromVersion: PeopleSchemaV3.self, toVersion: PeopleSchemaV4.self)]
    }
}
