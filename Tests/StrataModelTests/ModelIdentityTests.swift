import Foundation
import StrataModel
import Testing

/// Equality of model objects, and objects that outlive the context they were fetched through.
@Suite struct ModelIdentityTests {
    @Test(arguments: ModelBackend.all) func theSameRecordInTwoContextsIsEqual(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try backend.open(fixture.directory, [RankedTask.self, TaskList.self])
        let writer = ModelContext(container)
        let first = RankedTask(title: "first", priority: .low), second = RankedTask(title: "second", priority: .high)
        writer.insert(first)
        writer.insert(second)
        #expect(first != second, "two new objects are two records")
        try writer.save()

        let one = ModelContext(container), two = ModelContext(container)
        let a = try #require(try one.fetch(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.title == "first" })).first)
        let b = try #require(try two.fetch(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.title == "first" })).first)
        let c = try #require(try two.fetch(FetchDescriptor<RankedTask>(predicate: #Predicate { $0.title == "second" })).first)
        #expect(a !== b, "one object per record per context")
        #expect(a == b && a == first, "equal: the same record (the same persistentModelID)")
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, first, c]).count == 2)
        #expect(a != c)
    }

    /// An object made by your `init` gets its backing data, with a temporary identifier, when it is
    /// first used (the generated storage starts empty, so fetched objects never make one): once,
    /// so every later read sees the same identifier until the save makes it permanent. A fetched
    /// object comes with its record's identifier and its context.
    @Test(arguments: ModelBackend.all) func aNewObjectKeepsTheTemporaryIdentifierItGetsOnFirstUse(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try backend.open(fixture.directory, [RankedTask.self, TaskList.self])
        let context = ModelContext(container)
        let list = TaskList(name: "errands"), other = TaskList(name: "chores")  // their inits set no property with a default
        let temporary = list.persistentModelID
        #expect(temporary.isTemporary && temporary.entityName == "TaskList")
        #expect(list.persistentModelID == temporary && list.persistentBackingData === list.persistentBackingData, "made once, on first use")
        #expect(list.modelContext == nil && !list.isDeleted)
        #expect(other != list && other.persistentModelID.isTemporary && other.persistentModelID != temporary)
        context.insert(list)
        #expect(list.persistentModelID == temporary && list.modelContext === context, "insert keeps the identifier")
        list.name = "weekly errands"
        try context.save()
        #expect(!list.persistentModelID.isTemporary)

        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<TaskList>()).first)
        #expect(fetched.persistentModelID == list.persistentModelID && !fetched.persistentModelID.isTemporary)
        #expect(fetched.modelContext === reader && fetched.persistentBackingData === fetched.persistentBackingData)
        #expect(fetched.name == "weekly errands" && fetched.tasks.isEmpty)
        #expect(try reader.model(for: list.persistentModelID, as: TaskList.self) === fetched, "the identity map holds the fetched object")
    }

    /// Reads `list`'s tasks and a task's list through a context released before the reads.
    @Test(arguments: ModelBackend.all) func anObjectOutlivingItsContextStillReadsItsRelationships(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try backend.open(fixture.directory, [RankedTask.self, TaskList.self])
        do {
            let context = ModelContext(container)
            let list = TaskList(name: "errands")
            for title in ["bread", "milk", "stamps"] { list.tasks.append(RankedTask(title: title, priority: .medium)) }
            context.insert(list)
            try context.save()
        }
        func fetchedThroughATemporaryContext<T: PersistentModel>(_ type: T.Type) throws -> T {
            weak var released: ModelContext?
            let object = try {
                let context = ModelContext(container)
                released = context
                return try #require(try context.fetch(FetchDescriptor<T>()).first)
            }()
            #expect(released == nil, "the context is gone")
            return object
        }
        let list = try fetchedThroughATemporaryContext(TaskList.self)
        #expect(list.tasks.map(\.title) == ["bread", "milk", "stamps"], "a to-many loads after its context is gone")
        #expect(list.tasks.allSatisfy { $0.list == list })

        let task = try fetchedThroughATemporaryContext(RankedTask.self)
        #expect(task.list?.name == "errands", "a to-one loads after its context is gone")
        #expect(task.list?.tasks.count == 3)
    }
}
