import Foundation
import StrataModel
import Synchronization

// A contacts app's three versions and its plan, written as SwiftData's guides write them (only the
// import differs): `static let` members, models nested per version, a custom stage whose
// `willMigrate` reads the old objects (and fills, dedupes and batch-deletes) and whose
// `didMigrate` writes the new properties from what `willMigrate` read, then a lightweight stage
// adding a composite unique constraint and an optional property.

/// A value type stored as a document.
struct ContactAddress: Codable, Hashable {
    var street: String
    var zip: Int
}

enum ContactsSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Person.self, Phone.self]

    @Model final class Person {
        var name: String
        var rating: Int?
        var born: Date
        var photo: Data?
        var token: UUID
        var site: URL?
        var priority: PortedPriority
        var address: ContactAddress
        var scores: [Double]
        @Relationship(deleteRule: .cascade, inverse: \Phone.owner) var phones: [Phone] = []
        init(name: String, rating: Int?, born: Date, photo: Data?, token: UUID, site: URL?, priority: PortedPriority, address: ContactAddress, scores: [Double]) {
            self.name = name
            self.rating = rating
            self.born = born
            self.photo = photo
            self.token = token
            self.site = site
            self.priority = priority
            self.address = address
            self.scores = scores
        }
    }

    @Model final class Phone {
        var number: String
        var owner: Person?
        init(number: String) { self.number = number }
    }
}

/// `name` split into `firstName` and `lastName` (required, no default), `rating` made required.
enum ContactsSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self, Phone.self] }

    @Model final class Person {
        var firstName: String
        var lastName: String
        var rating: Int
        var born: Date
        var photo: Data?
        var token: UUID
        var site: URL?
        var priority: PortedPriority
        var address: ContactAddress
        var scores: [Double]
        @Relationship(deleteRule: .cascade, inverse: \Phone.owner) var phones: [Phone] = []
        init(firstName: String, lastName: String, rating: Int, born: Date, photo: Data?, token: UUID, site: URL?, priority: PortedPriority, address: ContactAddress, scores: [Double]) {
            self.firstName = firstName
            self.lastName = lastName
            self.rating = rating
            self.born = born
            self.photo = photo
            self.token = token
            self.site = site
            self.priority = priority
            self.address = address
            self.scores = scores
        }
    }

    @Model final class Phone {
        var number: String
        var owner: Person?
        init(number: String) { self.number = number }
    }
}

/// A person is unique by first and last name; an optional `email`.
enum ContactsSchemaV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Person.self, Phone.self] }

    @Model final class Person {
        #Unique<Person>([\.firstName, \.lastName])
        var firstName: String
        var lastName: String
        var rating: Int
        var born: Date
        var photo: Data?
        var token: UUID
        var site: URL?
        var priority: PortedPriority
        var address: ContactAddress
        var scores: [Double]
        var email: String?
        @Relationship(deleteRule: .cascade, inverse: \Phone.owner) var phones: [Phone] = []
        init(firstName: String, lastName: String, rating: Int, born: Date, photo: Data?, token: UUID, site: URL?, priority: PortedPriority, address: ContactAddress, scores: [Double]) {
            self.firstName = firstName
            self.lastName = lastName
            self.rating = rating
            self.born = born
            self.photo = photo
            self.token = token
            self.site = site
            self.priority = priority
            self.address = address
            self.scores = scores
        }
    }

    @Model final class Phone {
        var number: String
        var owner: Person?
        init(number: String) { self.number = number }
    }
}

/// What `willMigrate` read, for `didMigrate` to write: each person's name by identifier. The
/// stages of several stores may run at once (the tests run per backend in parallel), so it is
/// locked and keyed by identifier, which names one record in one store.
enum ContactsCarry {
    static let names = Mutex<[PersistentIdentifier: String]>([:])
}

/// The plan: custom v1 → v2, lightweight v2 → v3.
enum ContactsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ContactsSchemaV1.self, ContactsSchemaV2.self, ContactsSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: ContactsSchemaV1.self,
        toVersion: ContactsSchemaV2.self,
        willMigrate: { context in
            // People without a name go (their phones with them: cascade).
            try context.delete(model: ContactsSchemaV1.Person.self, where: #Predicate { $0.name == "" })
            var seen: [String: ContactsSchemaV1.Person] = [:]
            for person in try context.fetch(FetchDescriptor<ContactsSchemaV1.Person>(sortBy: [SortDescriptor(\.born)])) {
                if let first = seen[person.name] {
                    // A duplicate: its phones move to the first, it goes.
                    for phone in person.phones { phone.owner = first }
                    context.delete(person)
                    continue
                }
                seen[person.name] = person
                if person.rating == nil { person.rating = 3 }
            }
            try context.save()
            let names = Dictionary(uniqueKeysWithValues: seen.values.map { ($0.persistentModelID, $0.name) })
            ContactsCarry.names.withLock { $0.merge(names) { _, new in new } }
        },
        didMigrate: { context in
            let names = ContactsCarry.names.withLock { $0 }
            for person in try context.fetch(FetchDescriptor<ContactsSchemaV2.Person>()) {
                let parts = (names[person.persistentModelID] ?? "").split(separator: " ", maxSplits: 1).map(String.init)
                person.firstName = parts.first ?? ""
                person.lastName = parts.count > 1 ? parts[1] : ""
            }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: ContactsSchemaV2.self, toVersion: ContactsSchemaV3.self)
}

/// The same versions with a plan that forgets to dedupe: v3's unique constraint meets two
/// people of one name.
enum ContactsWithoutDedupePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ContactsSchemaV1.self, ContactsSchemaV2.self, ContactsSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: ContactsSchemaV1.self, toVersion: ContactsSchemaV2.self, willMigrate: nil, didMigrate: { context in
                for person in try context.fetch(FetchDescriptor<ContactsSchemaV2.Person>()) {
                    person.firstName = "Ada"
                    person.lastName = "Lovelace"
                }
            }),
            .lightweight(fromVersion: ContactsSchemaV2.self, toVersion: ContactsSchemaV3.self),
        ]
    }
}
