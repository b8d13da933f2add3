import Foundation
import StrataModel
import Testing

/// `@Relationship` written with SwiftData's full signature: `Schema.Relationship.Option`,
/// `Schema.Relationship.DeleteRule` spelled out, and SwiftData's `0` counts (only the import
/// changed).
@Model
final class Locker {
    var number: Int
    init(number: Int) { self.number = number }
}

@Model
final class Member {
    var name: String
    /// One locker per member: no two members may hold the same one.
    @Relationship(.unique, deleteRule: Schema.Relationship.DeleteRule.nullify) var locker: Locker?
    /// SwiftData's defaults written out: `0` is no bound.
    @Relationship(deleteRule: .cascade, minimumModelCount: 0, maximumModelCount: 0, inverse: \Visit.member) var visits: [Visit] = []
    init(name: String) { self.name = name }
}

@Model
final class Visit {
    var day: Int
    var member: Member?
    init(day: Int) { self.day = day }
}

/// `.unique` on a to-many, which SwiftData does not support either.
@Model
final class Club {
    @Relationship(.unique) var lockers: [Locker] = []
    init() {}
}

@Suite struct RelationshipOptionsTests {
    @Test(arguments: SampleStore.all) func aUniqueToOneRefusesASecondHolder(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        let container = try ModelContainer(for: Member.self, configurations: store.configuration(in: directory.url))
        let entity = try #require(container.schema.entity(named: "Member"))
        #expect(entity.uniqueConstraints == [[try #require(entity.property(named: "locker"))]])
        #expect(entity.relationships.first { $0.name == "visits" }?.maxCount == nil)

        let context = ModelContext(container)
        let locker = Locker(number: 7)
        let ann = Member(name: "Ann")
        ann.locker = locker
        ann.visits = (1...3).map(Visit.init(day:))
        context.insert(ann)
        try context.save()

        let other = ModelContext(container)
        let shared = try #require(other.fetch(FetchDescriptor<Locker>()).first)
        let bob = Member(name: "Bob")
        other.insert(bob)
        bob.locker = shared
        let error = try #require(throws: StrataError.self) { try other.save() }
        #expect(error.code == .uniqueConstraintViolation, "\(error)")

        // Another locker is fine; without `maximumModelCount` bounding it, any number of visits.
        bob.locker = Locker(number: 8)
        bob.visits = (1...5).map(Visit.init(day:))
        try other.save()
        let members = try ModelContext(container).fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.name)]))
        #expect(members.map { $0.locker?.number } == [7, 8] && members.map(\.visits.count) == [3, 5])
        #expect(Schema.Relationship.Option.unique == .unique)
    }

    @Test func uniqueOnAToManyIsRefusedNamingTheProperty() throws {
        let error = try #require(throws: StrataError.self) {
            try ModelContainer(for: Club.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(error.code == .invalidSchema && error.message.contains("lockers"), "\(error)")
    }
}
