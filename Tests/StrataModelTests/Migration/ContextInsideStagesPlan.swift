import Foundation
import StrataModel
import Synchronization

/// The contacts versions with a plan whose stages use the rest of `ModelContext`'s API on the
/// staged records: `fetchCount`, `fetchIdentifiers`, `enumerate`, a batched `fetch`,
/// `model(for:)`, `transaction`, `rollback`, an insert of an old-version object in `willMigrate`,
/// and in `didMigrate` a `#Predicate` through a relationship with a sort and a limit.
enum ContextInsideStagesPlan: SchemaMigrationPlan {
    /// What the stages saw, by store identifier (the tests run per backend in parallel).
    static let seen = Mutex<[String: [String]]>([:])

    static var schemas: [any VersionedSchema.Type] { [ContactsSchemaV1.self, ContactsSchemaV2.self, ContactsSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: ContactsSchemaV1.self, toVersion: ContactsSchemaV2.self, willMigrate: { context in
                typealias Person = ContactsSchemaV1.Person
                let ids = try context.fetchIdentifiers(FetchDescriptor<Person>())
                let store = ids.first?.storeIdentifier ?? "-"
                var facts = ["count \(try context.fetchCount(FetchDescriptor<Person>()))", "ids \(ids.count)"]
                let names = NameList()
                try context.enumerate(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.born)]), batchSize: 2) { names.all.append($0.name) }
                facts.append("enumerated \(names.all.joined(separator: ","))")
                facts.append("batched \(try context.fetch(FetchDescriptor<Person>(), batchSize: 2).map(\.name).count)")
                facts.append("model(for:) \((context.model(for: ids[0]) as? Person)?.name ?? "nil")")
                // A change rolled back leaves nothing.
                for person in try context.fetch(FetchDescriptor<Person>()) { person.name = "X" }
                context.rollback()
                // An old-version object inserted inside a transaction.
                try context.transaction {
                    context.insert(Person(name: "Katherine Johnson", rating: nil, born: Date(timeIntervalSinceReferenceDate: 0), photo: nil, token: UUID(), site: nil, priority: .high, address: ContactAddress(street: "K", zip: 7), scores: []))
                }
                // Only people without a duplicate name stay; nils filled.
                var kept = Set<String>()
                for person in try context.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.born)])) {
                    if !kept.insert(person.name).inserted || person.name.isEmpty { context.delete(person) } else if person.rating == nil { person.rating = 2 }
                }
                seen.withLock { $0[store] = facts }
            }, didMigrate: { context in
                typealias Person = ContactsSchemaV2.Person
                for person in try context.fetch(FetchDescriptor<Person>()) {
                    person.firstName = "First"
                    person.lastName = person.address.street
                }
                try context.save()
                let withPhones = try context.fetch(FetchDescriptor<ContactsSchemaV2.Phone>(predicate: #Predicate { $0.owner?.rating == 5 }, sortBy: [SortDescriptor(\.number, order: .reverse)]))
                let store = withPhones.first?.persistentModelID.storeIdentifier ?? "-"
                seen.withLock { $0[store, default: []].append("phones of rating 5 \(withPhones.map(\.number).joined(separator: ","))") }
            }),
            .lightweight(fromVersion: ContactsSchemaV2.self, toVersion: ContactsSchemaV3.self),
        ]
    }

    /// A list a non-`Sendable` block appends to.
    final class NameList { var all: [String] = [] }
}
