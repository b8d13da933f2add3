import Foundation
import StrataModel
import Testing

/// One process, one store, several containers: each sees the others' saves at once and none is
/// lost; another schema on the same store at the same time is a clear error.
@Suite struct SharedStoreTests {
    static var types: [any PersistentModel.Type] { [RankedTask.self, TaskList.self] }

    static func titles(_ context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<RankedTask>()).map(\.title).sorted()
    }

    @Test(arguments: ModelBackend.all) func twoContainersOnOneStoreShareIt(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        do {
            let first = ModelContext(try backend.open(fixture.directory, Self.types))
            let second = ModelContext(try backend.open(fixture.directory, Self.types))
            first.insert(RankedTask(title: "one", priority: .low))
            try first.save()
            #expect(try Self.titles(second) == ["one"], "the second container sees the first's save at once")
            second.insert(RankedTask(title: "two", priority: .high))
            try second.save()
            #expect(try Self.titles(first) == ["one", "two"])
            // Saves alternate, each on top of the other's.
            for n in 0..<6 {
                let context = n % 2 == 0 ? first : second
                context.insert(RankedTask(title: "turn \(n)", priority: .medium))
                try context.save()
            }
            #expect(try Self.titles(first).count == 8 && (try Self.titles(second)).count == 8)
        }
        let reopened = ModelContext(try backend.open(fixture.directory, Self.types))
        #expect(try Self.titles(reopened).count == 8, "no save was lost")
    }

    @Test(arguments: ModelBackend.all) func anotherSchemaOnAnOpenStoreIsAClearError(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let first = ModelContext(try backend.open(fixture.directory, Self.types))
        first.insert(RankedTask(title: "one", priority: .low))
        try first.save()
        let error = try #require(throws: StrataError.self) { try backend.open(fixture.directory, [Peer.self]) }
        #expect(error.code == .schemaMismatch, "\(backend): \(error)")
        #expect(try Self.titles(first) == ["one"], "the open store is unharmed")
    }

    @Test(arguments: ModelBackend.all) func aStoreClosedInThisProcessOpensAgain(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        do {
            let context = ModelContext(try backend.open(fixture.directory, Self.types))
            context.insert(RankedTask(title: "one", priority: .low))
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, Self.types))
        #expect(try Self.titles(context) == ["one"])
    }
}
