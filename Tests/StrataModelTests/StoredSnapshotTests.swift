import Foundation
@testable import StrataModel
import Testing

/// The model layer keeps each backend's own snapshot (`StoredSnapshot`): a `DefaultSnapshot` as it
/// is, any other type (SQLite's and LMDB's lazily decoded ones, CSV's rows of text) unconverted, read through
/// `DataStoreSnapshot`; objects read, update and refresh the same on both.
@Suite struct StoredSnapshotTests {
    @Test(arguments: ModelBackend.all) func objectsKeepTheBackendsSnapshotAndReadUpdateAndRefreshThroughIt(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        defer { withExtendedLifetime(fixture) {} }  // its deinit removes the folder
        let container = try backend.open(fixture.directory, [Holder.self, Badge.self])
        let writer = ModelContext(container)
        let holder = Holder(name: "ada")
        for label in ["first", "second", "third"] { holder.badges.append(Badge(label: label)) }
        writer.insert(holder)
        try writer.save()
        let ids = holder.badges.map(\.persistentModelID)

        // A fetch and a point lookup hand the backend's snapshot type to the objects, unconverted.
        let reader = ModelContext(container)
        let fetched = try reader.fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.label)]))
        let looked = try ModelContext(container).model(for: ids[1], as: Badge.self)
        for model in fetched + [looked] {
            let snapshot = try #require(model.persistentBackingData.snapshot)
            switch (backend.name, snapshot) {
            case ("sqlite", .other), ("lmdb", .other), ("csv", .other): break
            case ("sqlite", _), ("lmdb", _), ("csv", _): Issue.record("\(backend.name): a \(snapshot) was converted to a DefaultSnapshot")
            case (_, .plain): break
            case (_, .other): Issue.record("\(backend.name): a DefaultSnapshot was wrapped as another type")
            }
            #expect(snapshot.persistentIdentifier == model.persistentModelID)
        }
        #expect(fetched.map(\.label) == ["first", "second", "third"])
        #expect(looked.label == "second" && looked.holder?.name == "ada")
        #expect(Set(fetched.map(\.persistentModelID)) == Set(ids))

        // An update sends the stored values with the changed one; the saved state is a DefaultSnapshot.
        fetched[0].small = 7
        try reader.save()
        guard case .plain(let saved) = try #require(fetched[0].persistentBackingData.snapshot) else {
            Issue.record("\(backend.name): the saved state is not the sent snapshot"); return
        }
        #expect(saved.attributes.contains(.int(7)))
        #expect(fetched[1].persistentBackingData.snapshot.map { if case .plain = $0 { false } else { true } } == ["sqlite", "lmdb", "csv"].contains(backend.name))

        // Another context's change reaches an unchanged object when it is fetched again (refresh
        // compares the stored snapshot of either kind with the new one).
        let other = ModelContext(container)
        try other.model(for: ids[2], as: Badge.self).label = "changed"
        try other.save()
        let again = try reader.fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.label)]))
        #expect(again.map(\.label) == ["changed", "first", "second"])
        #expect(again.first === fetched[2])
        #expect(try ModelContext(container).model(for: ids[0], as: Badge.self).small == 7)
    }

    /// A fetch's identifiers are read in one pass per fetch (`DataStoreSnapshot.persistentIdentifiers(of:)`,
    /// kept beside the rows): every object gets its own record's identifier, in the fetch's order,
    /// across several of SQLite's row blocks (about 400 of these rows fill one), in a context that
    /// holds no object yet and in one that holds some of them.
    @Test(arguments: ModelBackend.all) func aFetchGivesEachObjectItsOwnIdentifierAcrossRowBlocks(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        defer { withExtendedLifetime(fixture) {} }  // its deinit removes the folder
        let container = try backend.open(fixture.directory, [Holder.self, Badge.self])
        let writer = ModelContext(container)
        for i in 0..<1_500 { writer.insert(Badge(label: "badge-\(1_000_000 + i)")) }
        try writer.save()
        let descriptor = FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.label, order: .reverse)])
        let expected = try ModelContext(container).fetchIdentifiers(descriptor)
        #expect(expected.count == 1_500)

        let fresh = ModelContext(container)
        let fetched = try fresh.fetch(descriptor)
        #expect(fetched.map(\.persistentModelID) == expected)
        #expect(fetched.map(\.label) == (0..<1_500).reversed().map { "badge-\(1_000_000 + $0)" })
        for model in fetched { #expect(try #require(model.persistentBackingData.snapshot).persistentIdentifier == model.persistentModelID) }

        let holding = ModelContext(container)
        let some = try expected.enumerated().filter { $0.offset % 7 == 0 }.map { try holding.model(for: $0.element, as: Badge.self) }
        let again = try holding.fetch(descriptor)
        #expect(again.map(\.persistentModelID) == expected)
        for (i, model) in some.enumerated() { #expect(again[i * 7] === model) }
    }
}
