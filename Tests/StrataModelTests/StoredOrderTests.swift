import Foundation
import StrataModel
import Testing

/// Ordering comparisons follow the Swift type's order, never the order of its stored form; where
/// the store cannot know the Swift order the query is refused by name. The oracle is Foundation's
/// own `Predicate.evaluate` on every task.
@Suite struct StoredOrderTests {
    static let priorities: [TaskPriority] = [.high, .low, .medium, .low, .high, .medium, .low]

    /// A store of seven tasks of mixed priority, level, due date and token.
    static func filled(_ backend: ModelBackend) throws -> (ModelFixture, ModelContext) {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try backend.open(fixture.directory, [RankedTask.self, TaskList.self]))
        for (n, priority) in priorities.enumerated() {
            let task = RankedTask(title: "task \(n)", priority: priority)
            task.level = TaskLevel.allCases[n % 3]
            task.due = n % 2 == 0 ? Date(timeIntervalSince1970: Double(n) * 1_000) : nil
            context.insert(task)
        }
        try context.save()
        return (fixture, ModelContext(context.container))
    }

    static func titles(_ tasks: [RankedTask]) -> [String] { tasks.map(\.title).sorted() }

    /// What `predicate` selects, computed by Swift over every task.
    static func expected(_ context: ModelContext, _ predicate: Predicate<RankedTask>) throws -> [String] {
        titles(try context.fetch(FetchDescriptor<RankedTask>()).filter { try predicate.evaluate($0) })
    }

    @Test(arguments: ModelBackend.all) func anEnumComparesBySwiftOrderNotByRawString(_ backend: ModelBackend) throws {
        let (fixture, context) = try Self.filled(backend)
        defer { _ = fixture }
        let high = TaskPriority.high, medium = TaskPriority.medium, low = TaskPriority.low, three = TaskLevel.three
        let predicates: [Predicate<RankedTask>] = [
            #Predicate { $0.priority < high },
            #Predicate { $0.priority <= medium },
            #Predicate { $0.priority > low },
            #Predicate { $0.priority >= high },
            #Predicate { high > $0.priority },
            #Predicate { !($0.priority < medium) },
            #Predicate { (low...medium).contains($0.priority) },
            #Predicate { (medium..<high).contains($0.priority) },
            #Predicate { $0.level < three && $0.priority >= medium },
        ]
        let lowOrMedium = Self.titles(try context.fetch(FetchDescriptor<RankedTask>()).filter { $0.priority != .high })
        #expect(lowOrMedium.count == 5)
        #expect(Self.titles(try context.fetch(FetchDescriptor(predicate: predicates[0]))) == lowOrMedium, "the issue's case: `< high` is low and medium")
        for predicate in predicates {
            let fetched = Self.titles(try context.fetch(FetchDescriptor(predicate: predicate)))
            #expect(fetched == (try Self.expected(context, predicate)), "\(backend): \(predicate)")
            #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == fetched.count)
        }
    }

    @Test(arguments: ModelBackend.all) func typesWhoseStoredOrderIsTheirOrderCompareInTheStore(_ backend: ModelBackend) throws {
        let (fixture, context) = try Self.filled(backend)
        defer { _ = fixture }
        let all = try context.fetch(FetchDescriptor<RankedTask>())
        let pivot = all.map(\.token).sorted()[3], cutoff = Date(timeIntervalSince1970: 3_500), two = TaskLevel.two, never = Date.distantFuture
        let predicates: [Predicate<RankedTask>] = [
            #Predicate { $0.token < pivot },
            #Predicate { $0.token >= pivot },
            #Predicate { ($0.due ?? never) < cutoff },
            #Predicate { $0.level > two },
        ]
        for predicate in predicates {
            #expect(Self.titles(try context.fetch(FetchDescriptor(predicate: predicate))) == (try Self.expected(context, predicate)), "\(backend): \(predicate)")
        }
        let byToken = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.token)]))
        #expect(byToken.map(\.token) == all.map(\.token).sorted(), "UUIDs sort as Swift sorts them")
        let byLevel = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.level, order: .reverse), SortDescriptor(\.title)]))
        #expect(byLevel.map(\.level) == all.map(\.level).sorted(by: >), "an Int enum whose order is its raw values' sorts in the store")
        let byDue = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.due), SortDescriptor(\.title)]))
        #expect(byDue.prefix(3).allSatisfy { $0.due == nil } && byDue.dropFirst(3).map(\.due) == all.compactMap(\.due).sorted(), "nil first, as Foundation sorts optionals")
    }

    @Test(arguments: ModelBackend.all) func anOrderTheStoreCannotFollowIsRefusedByName(_ backend: ModelBackend) throws {
        let (fixture, context) = try Self.filled(backend)
        defer { _ = fixture }
        let major = TaskSeverity.major, version = TaskVersion(major: 1, minor: 5)
        let refusals: [(String, () throws -> Void)] = [
            ("'severity'", { _ = try context.fetch(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.severity < major })) }),
            ("'severity'", { _ = try context.fetchCount(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.severity >= major })) }),
            ("'priority'", { _ = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.priority)])) }),
            ("'severity'", { _ = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.severity, order: .reverse)])) }),
            ("'version'", { _ = try context.fetch(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.version < version })) }),
            ("'version'", { _ = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.version)])) }),
        ]
        for (name, attempt) in refusals {
            let error = try #require(throws: StrataError.self) { try attempt() }
            #expect(error.code == .unsupportedPredicate, "\(error)")
            #expect(error.message.contains(name) && error.message.contains("order"), "names the property and why: \(error.message)")
        }
        // Equality never depends on order: still answered by the store.
        #expect(try context.fetchCount(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.severity == major })) == 0)
        // A sort through a to-one on a plain attribute is unaffected.
        #expect(try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.list?.name)])).count == Self.priorities.count)
    }

    @Test(arguments: ModelBackend.all) func identifiersInPredicates(_ backend: ModelBackend) throws {
        let (fixture, context) = try Self.filled(backend)
        defer { _ = fixture }
        let all = try context.fetch(FetchDescriptor<RankedTask>(sortBy: [SortDescriptor(\.title)]))
        let target = all[2], targetID = all[2].id, others = [all[0].persistentModelID, all[5].persistentModelID]
        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<RankedTask> { $0.id == targetID })).map(\.title) == [target.title])
        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<RankedTask> { $0.persistentModelID == targetID })).map(\.title) == [target.title])
        #expect(try context.fetchCount(FetchDescriptor(predicate: #Predicate<RankedTask> { $0.id != targetID })) == all.count - 1)
        #expect(try context.fetchCount(FetchDescriptor(predicate: #Predicate<RankedTask> { $0.persistentModelID != targetID })) == all.count - 1)
        #expect(Self.titles(try context.fetch(FetchDescriptor(predicate: #Predicate<RankedTask> { others.contains($0.persistentModelID) }))) == [all[0].title, all[5].title])
        #expect(Self.titles(try context.fetch(FetchDescriptor(predicate: #Predicate<RankedTask> { others.contains($0.id) }))) == [all[0].title, all[5].title])

        let cutoff = targetID
        let error = try #require(throws: StrataError.self) {
            _ = try context.fetch(FetchDescriptor(predicate: #Predicate<RankedTask> { $0.persistentModelID < cutoff }))
        }
        #expect(error.code == .unsupportedPredicate)
        #expect(error.message.contains("identifier") && !error.message.contains("Boolean"), "says what is refused: \(error.message)")
    }
}
