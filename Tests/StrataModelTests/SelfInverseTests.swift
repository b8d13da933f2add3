import Foundation
import StrataModel
import Testing

/// A person whose friendships and marriage are symmetric: each relationship is its own inverse.
///
/// Swift cannot compile `@Relationship(inverse: \Peer.friends) var friends` (a macro argument
/// naming the property the macro is attached to is a "circular reference resolving attached
/// macro"), so the key paths are named through typed static properties.
@Model final class Peer {
    var name: String
    @Relationship(inverse: Peer.friendsInverse) var friends: [Peer] = []
    @Relationship(inverse: Peer.spouseInverse) var spouse: Peer?
    init(name: String) { self.name = name }
}

extension Peer {
    static var friendsInverse: PartialKeyPath<Peer> { \Peer.friends }
    static var spouseInverse: PartialKeyPath<Peer> { \Peer.spouse }
}

/// A relationship that is its own inverse (Core Data and SwiftData allow it): setting one side
/// sets the other, in memory at once and in the store after a save, on every backend.
@Suite struct SelfInverseTests {
    /// A container at `fixture`'s location, and a context holding three new peers a, b, c.
    static func threePeers(_ backend: ModelBackend, _ fixture: ModelFixture) throws -> (ModelContainer, ModelContext, Peer, Peer, Peer) {
        let container = try backend.open(fixture.directory, [Peer.self])
        let context = ModelContext(container)
        let a = Peer(name: "a"), b = Peer(name: "b"), c = Peer(name: "c")
        for peer in [a, b, c] { context.insert(peer) }
        return (container, context, a, b, c)
    }

    /// Everyone's friends' and spouse's names, read in a fresh context.
    static func stored(_ container: ModelContainer) throws -> [String: (friends: [String], spouse: String?)] {
        let context = ModelContext(container)
        var result: [String: (friends: [String], spouse: String?)] = [:]
        for peer in try context.fetch(FetchDescriptor<Peer>()) { result[peer.name] = (peer.friends.map(\.name).sorted(), peer.spouse?.name) }
        return result
    }

    @Test func theSchemaPairsTheRelationshipWithItself() throws {
        let peer = try #require(try Schema(models: [Peer.self]).entity(named: "Peer"))
        #expect(peer.relationships.map(\.inverse) == ["friends", "spouse"])
    }

    @Test(arguments: ModelBackend.all) func aSymmetricToManyIsKeptOnBothSides(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let (container, context, a, b, c) = try Self.threePeers(backend, fixture)
        a.friends.append(b)
        #expect(b.friends.map(\.name) == ["a"], "in memory, at once")
        try context.save()
        var stored = try Self.stored(container)
        #expect(stored["a"]?.friends == ["b"] && stored["b"]?.friends == ["a"] && stored["c"]?.friends == [])

        c.friends = [a, b]
        #expect(a.friends.map(\.name).sorted() == ["b", "c"] && b.friends.map(\.name).sorted() == ["a", "c"])
        try context.save()
        stored = try Self.stored(container)
        #expect(stored["a"]?.friends == ["b", "c"] && stored["b"]?.friends == ["a", "c"] && stored["c"]?.friends == ["a", "b"])

        // Removing from either side removes from both.
        let other = ModelContext(container)
        let b2 = try #require(try other.fetch(FetchDescriptor<Peer>(predicate: #Predicate { $0.name == "b" })).first)
        b2.friends.removeAll { $0.name == "a" }
        #expect(b2.friends.map(\.name) == ["c"])
        try other.save()
        stored = try Self.stored(container)
        #expect(stored["a"]?.friends == ["c"] && stored["b"]?.friends == ["c"] && stored["c"]?.friends == ["a", "b"])

        // Deleting one (nullify) takes it out of everyone's list.
        let third = ModelContext(container)
        try third.delete(#require(try third.fetch(FetchDescriptor<Peer>(predicate: #Predicate { $0.name == "c" })).first))
        try third.save()
        stored = try Self.stored(container)
        #expect(stored.count == 2 && stored["a"]?.friends == [] && stored["b"]?.friends == [])
    }

    @Test(arguments: ModelBackend.all) func aSymmetricToOneMovesBothSides(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let (container, context, a, b, _) = try Self.threePeers(backend, fixture)
        a.spouse = b
        #expect(b.spouse === a)
        try context.save()
        var stored = try Self.stored(container)
        #expect(stored["a"]?.spouse == "b" && stored["b"]?.spouse == "a" && stored["c"]?.spouse == nil)

        // Marrying c leaves b single, on both sides.
        let other = ModelContext(container)
        let c2 = try #require(try other.fetch(FetchDescriptor<Peer>(predicate: #Predicate { $0.name == "c" })).first)
        let a2 = try #require(try other.fetch(FetchDescriptor<Peer>(predicate: #Predicate { $0.name == "a" })).first)
        c2.spouse = a2
        #expect(a2.spouse === c2)
        try other.save()
        stored = try Self.stored(container)
        #expect(stored["a"]?.spouse == "c" && stored["c"]?.spouse == "a" && stored["b"]?.spouse == nil)

        // Deleting a (nullify) leaves c single.
        let third = ModelContext(container)
        try third.delete(#require(try third.fetch(FetchDescriptor<Peer>(predicate: #Predicate { $0.name == "a" })).first))
        try third.save()
        stored = try Self.stored(container)
        #expect(stored.count == 2 && stored["c"]?.spouse == nil && stored["b"]?.spouse == nil)
    }
}

/// Linked cells: deleting one deletes every cell linked to it, through the relationship that is its
/// own inverse, and the cascade ends although every link is seen from both sides.
@Model final class LinkedCell {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: LinkedCell.linksInverse) var links: [LinkedCell] = []
    init(name: String) { self.name = name }
}

extension LinkedCell {
    static var linksInverse: PartialKeyPath<LinkedCell> { \LinkedCell.links }
}

@Suite struct SelfInverseCascadeTests {
    @Test(arguments: ModelBackend.all) func aCascadeThroughASelfInverseDeletesTheLinkedGroupAndEnds(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try backend.open(fixture.directory, [LinkedCell.self])
        let context = ModelContext(container)
        let cells = (0..<5).map { LinkedCell(name: "c\($0)") }
        for cell in cells { context.insert(cell) }
        cells[0].links = [cells[1], cells[2]]
        cells[3].links = [cells[4]]
        try context.save()
        let other = ModelContext(container)
        let first = try #require(try other.fetch(FetchDescriptor<LinkedCell>(predicate: #Predicate { $0.name == "c1" })).first)
        other.delete(first)
        try other.save()
        let left = try ModelContext(container).fetch(FetchDescriptor<LinkedCell>(sortBy: [SortDescriptor(\.name)]))
        #expect(left.map(\.name) == ["c3", "c4"], "c1 took c0 and, through it, c2; the other group stays")
        #expect(left.first?.links.map(\.name) == ["c4"] && left.last?.links.map(\.name) == ["c3"])
    }
}
