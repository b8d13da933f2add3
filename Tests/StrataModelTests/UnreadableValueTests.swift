import Foundation
@testable import StrataModel
import Testing

/// A badge whose level is an enum and whose holder lists it: the shapes a stored value can stop fitting.
@Model final class Badge {
    var label: String
    var level: Priority = .normal
    var mood: Mood? = nil
    var place: Location? = nil
    var small: Int8 = 0
    var holder: Holder?
    init(label: String) { self.label = label }
}

@Model final class Holder {
    var name: String
    @Relationship(inverse: \Badge.holder) var badges: [Badge] = []
    init(name: String) { self.name = name }
}

/// A stored value the Swift type cannot represent (written by older code, another program, or a
/// schema whose enum lost a case) is a `typeMismatch` error naming the record and the property,
/// never a crash.
@Suite struct UnreadableValueTests {
    /// Saves one holder with one badge, then overwrites `property` of the badge at store level.
    func storeWithBadValue(_ backend: ModelBackend, _ property: String, _ value: Value) throws -> (ModelFixture, ModelContainer, PersistentIdentifier) {
        let fixture = try ModelFixture(backend)
        let container = try backend.open(fixture.directory, [Holder.self])
        let context = ModelContext(container)
        let holder = Holder(name: "ada")
        holder.badges.append(Badge(label: "first"))
        context.insert(holder)
        try context.save()
        let id = holder.badges[0].persistentModelID
        // Below the model layer, as a program that knows only the schema would write it.
        let stored = try #require(try container.store.fetch(Strata.FetchDescriptor(entity: "Badge", predicate: .identifierIn([id]))).first).plain
        var attributes = stored.attributes
        attributes[try #require(stored.entity.attributeIndex(property))] = value
        let changed = Strata.DefaultSnapshot(entity: stored.entity, persistentIdentifier: id, attributes: attributes, relationships: stored.relationships)
        _ = try container.store.save(SaveRequest(updated: [changed]))
        return (fixture, container, id)
    }

    static let cases: [(property: String, value: Value)] = [
        ("level", .int(9)),  // an enum case the code no longer has
        ("mood", .string("angry")),  // the same for an optional String enum
        ("place", .string(#"{"lat":1}"#)),  // a document of another shape
        ("small", .int(1_000)),  // out of Int8's range
    ]

    @Test(arguments: ModelBackend.all) func fetchAndLookupThrowNamingTheProperty(_ backend: ModelBackend) throws {
        for (property, value) in Self.cases {
            let (fixture, container, id) = try storeWithBadValue(backend, property, value)
            let context = ModelContext(container)
            do {
                _ = try context.fetch(FetchDescriptor<Badge>())
                Issue.record("fetch of a badge with an unreadable '\(property)' succeeded")
            } catch let error as StrataError {
                #expect(error.code == .typeMismatch)
                #expect(error.properties == [property] && error.identifiers == [id] && error.entity == "Badge")
            }
            #expect(throws: StrataError.self) { _ = try context.model(for: id, as: Badge.self) }
            #expect(throws: StrataError.self) { try context.enumerate(FetchDescriptor<Badge>()) { _ in } }
            // Counting and identifiers make no objects: they still work.
            #expect(try context.fetchCount(FetchDescriptor<Badge>()) == 1)
            #expect(try context.fetchIdentifiers(FetchDescriptor<Badge>()) == [id])
            _ = fixture
        }
    }

    @Test(arguments: ModelBackend.all) func aRelationshipLeavesTheRecordOutAndSaysWhy(_ backend: ModelBackend) throws {
        let (fixture, container, id) = try storeWithBadValue(backend, "level", .int(9))
        let context = ModelContext(container)
        let holder = try #require(try context.fetch(FetchDescriptor<Holder>()).first)
        #expect(holder.badges.isEmpty)
        #expect(context.unreadableRecords[id]?.code == .typeMismatch)
        #expect(context.unreadableRecords[id]?.properties == ["level"])
        _ = fixture
    }

    @Test func aValueThatFitsAgainIsReadable() throws {
        let (fixture, container, id) = try storeWithBadValue(ModelBackend.all[0], "small", .int(-128))
        let badge = try ModelContext(container).model(for: id, as: Badge.self)
        #expect(badge.small == -128 && badge.level == .normal)
        _ = fixture
    }
}
