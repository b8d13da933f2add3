import Foundation
@testable import StrataModel
import StrataSQLite
import Testing

/// `mainContext`, `autosaveEnabled` and the save notifications, as SwiftData documents them, and
/// Strata's fixed autosave moments (`ModelContext+Autosave.swift`).
@Suite struct ContextLifecycleTests {
    private func memoContainer() throws -> ModelContainer {
        try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    }

    @Test @MainActor func mainContextIsOneAutosavingContext() throws {
        let container = try memoContainer()
        let main = container.mainContext
        #expect(main === container.mainContext)
        #expect(main.autosaveEnabled)
        #expect(main.container === container)
        #expect(!ModelContext(container).autosaveEnabled)
    }

    @Test(.timeLimit(.minutes(10))) @MainActor func mainContextSavesOnceTheChangingCodeHasRun() async throws {
        let container = try memoContainer()
        let changes = container.changes()
        container.mainContext.insert(Memo(title: "autosaved"))
        container.mainContext.insert(Memo(title: "same save"))
        // Nothing is saved while the inserting code runs…
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Memo>()) == 0)
        // …and one save of both happens once it yields: wait for it.
        var iterator = changes.makeAsyncIterator()
        let saved = try #require(await iterator.next())
        #expect(saved.inserted.count == 2)
        #expect(!container.mainContext.hasChanges)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Memo>()).map(\.title).sorted() == ["autosaved", "same save"])
    }

    @Test func autosavingContextSavesBeforeItReads() throws {
        let container = try memoContainer()
        let observer = ModelContext(container)
        let context = ModelContext(container)
        context.autosaveEnabled = true
        context.insert(Memo(title: "a"))
        #expect(try observer.fetchCount(FetchDescriptor<Memo>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Memo>()) == 1)
        #expect(!context.hasChanges)
        #expect(try observer.fetchCount(FetchDescriptor<Memo>()) == 1)

        // A change to a saved object, then a fetch: saved first.
        let memo = try #require(try context.fetch(FetchDescriptor<Memo>()).first)
        memo.body = "edited"
        _ = try context.fetchIdentifiers(FetchDescriptor<Memo>())
        #expect(try observer.fetch(FetchDescriptor<Memo>()).first?.body == "edited")

        // Off (the default for contexts you make): a read saves nothing.
        let manual = ModelContext(container)
        manual.insert(Memo(title: "b"))
        #expect(try manual.fetchCount(FetchDescriptor<Memo>()) == 2)
        #expect(manual.hasChanges)
        #expect(try observer.fetchCount(FetchDescriptor<Memo>()) == 1)
    }

    @Test func failedAutosaveLeavesTheChangesPending() throws {
        let container = try ModelContainer(for: Recipe.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let first = ModelContext(container)
        first.insert(Recipe(name: "Stew"))
        try first.save()
        let context = ModelContext(container)
        context.autosaveEnabled = true
        context.insert(Recipe(name: "Stew"))
        // The read still answers (pending changes included); the autosave failed quietly…
        #expect(try context.fetchCount(FetchDescriptor<Recipe>()) == 2)
        #expect(context.hasChanges)
        // …and the next explicit save reports why.
        do {
            try context.save()
            Issue.record("a duplicate unique name saved")
        } catch let error as StrataError {
            #expect(error.code == .uniqueConstraintViolation)
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Recipe>()) == 1)
    }

    @Test func saveNotificationsCarrySwiftDataKeys() throws {
        let container = try memoContainer()
        let context = ModelContext(container)
        let seen = SeenNotifications(context)
        try context.save()
        #expect(seen.seen.isEmpty)  // nothing to save, nothing posted

        let kept = Memo(title: "kept"), dropped = Memo(title: "dropped")
        context.insert(kept)
        context.insert(dropped)
        try context.save()
        #expect(seen.seen == [ModelContext.willSave, ModelContext.didSave])
        let inserted = seen.userInfos[1][ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier]
        #expect(Set(inserted ?? []) == [kept.persistentModelID, dropped.persistentModelID])
        #expect(seen.userInfos[0].isEmpty)

        kept.body = "changed"
        context.delete(dropped)
        try context.save()
        let info = seen.userInfos[3]
        #expect(info[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] == [kept.persistentModelID])
        #expect(info[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] == [dropped.persistentModelID])
        #expect(info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] == [])

        // A failed save posts willSave only.
        let recipes = try ModelContainer(for: Recipe.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let first = ModelContext(recipes)
        first.insert(Recipe(name: "Stew"))
        try first.save()
        let second = ModelContext(recipes)
        let secondSeen = SeenNotifications(second)
        second.insert(Recipe(name: "Stew"))
        #expect(throws: StrataError.self) { try second.save() }
        #expect(secondSeen.seen == [ModelContext.willSave])
    }
}

/// `ModelContainer(for:)` with no configuration: SQLite at the documented default location. The
/// tests point the default location at a temporary folder (`defaultDirectoryOverride`), so they run
/// one at a time.
@Suite(.serialized) struct DefaultStoreLocationTests {
    @Test func defaultStoreGoesToTheDefaultDirectory() throws {
        let directory = try SampleDirectory()
        let folder = directory.url.appendingPathComponent("app")
        let expected = folder.appendingPathComponent("default.store")
        ModelConfiguration.defaultDirectoryOverride.withLock { $0 = folder }
        defer { ModelConfiguration.defaultDirectoryOverride.withLock { $0 = nil } }
        do {
            let container = try ModelContainer(for: Memo.self)
            #expect(container.configurations.first?.url.path == expected.path)
            #expect(container.configuration is SQLiteStoreConfiguration)
            let context = ModelContext(container)
            context.insert(Memo(title: "default"))
            try context.save()
        }
        #expect(FileManager.default.fileExists(atPath: expected.path))
        #expect(ModelConfiguration("Journal").url.path == folder.appendingPathComponent("Journal.store").path)
        let again = try ModelContainer(for: Memo.self, configurations: ModelConfiguration())
        #expect(try ModelContext(again).fetch(FetchDescriptor<Memo>()).map(\.title) == ["default"])
    }

    @Test func defaultDirectoryFollowsXDG() {
        let tool = "/usr/local/bin/tool"
        #expect(ModelConfiguration.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"], executable: tool).path == "/data/tool")
        #expect(ModelConfiguration.defaultDirectory(environment: ["HOME": "/home/u"], executable: tool).path == "/home/u/.local/share/tool")
        // A relative XDG_DATA_HOME is invalid by the specification and ignored.
        #expect(ModelConfiguration.defaultDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"], executable: tool).path == "/home/u/.local/share/tool")
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        #expect(ModelConfiguration.defaultDirectory.lastPathComponent == executable)
    }
}
