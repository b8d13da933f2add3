import Foundation
import StrataModel
import Testing

/// `ModelContainer.deleteAllData()` / `erase()`, `ModelContext.processPendingChanges()` and
/// `ModelContext.editingState`, as Apple documents them, on every built-in backend.
@Suite struct ContainerMaintenanceTests {
    @Test(arguments: SampleStore.all) func deleteAllDataEmptiesEveryEntity(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        let schema = Schema([Recipe.self, RecipeStep.self, Memo.self])
        do {
            let container = try ModelContainer(for: schema, configurations: store.configuration(in: directory.url, schema: schema))
            let context = ModelContext(container)
            let soup = Recipe(name: "Soup")
            soup.steps = [RecipeStep(text: "Boil", order: 1), RecipeStep(text: "Serve", order: 2)]
            context.insert(soup)
            context.insert(Memo(title: "m"))
            try context.save()

            container.deleteAllData()
            let fresh = ModelContext(container)
            #expect(try fresh.fetchCount(FetchDescriptor<Recipe>()) == 0)
            #expect(try fresh.fetchCount(FetchDescriptor<RecipeStep>()) == 0)
            #expect(try fresh.fetchCount(FetchDescriptor<Memo>()) == 0)
            // The store works on: a recipe of the same (unique) name can be saved again.
            fresh.insert(Recipe(name: "Soup"))
            try fresh.save()
        }
        guard store.file != nil else { return }
        let reopened = try ModelContainer(for: schema, configurations: store.configuration(in: directory.url, schema: schema))
        #expect(try ModelContext(reopened).fetch(FetchDescriptor<Recipe>()).map(\.name) == ["Soup"])
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Memo>()) == 0)
    }

    @Test func eraseReportsWhatDeleteAllDataCannot() throws {
        let directory = try SampleDirectory()
        let url = directory.url.appendingPathComponent("kept.store")
        do {
            let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Memo(title: "kept"))
            try context.save()
        }
        let readOnly = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        readOnly.deleteAllData()
        #expect(throws: StrataError.self) { try readOnly.erase() }
        #expect(try ModelContext(readOnly).fetch(FetchDescriptor<Memo>()).map(\.title) == ["kept"])
    }

    @Test func deleteAllDataEmptiesEveryConfigurationsStore() throws {
        let container = try SeveralConfigurationsTests.memosThenRecipesInMemory()
        let context = ModelContext(container)
        context.insert(Recipe(name: "Soup"))
        context.insert(Memo(title: "m"))
        try context.save()
        try container.erase()
        #expect(try context.fetchCount(FetchDescriptor<Recipe>()) == 0 && context.fetchCount(FetchDescriptor<Memo>()) == 0)
    }

    @Test(arguments: SampleStore.all) func processPendingChangesNeitherSavesNorDrops(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        let container = try ModelContainer(for: Memo.self, configurations: store.configuration(in: directory.url))
        let context = ModelContext(container)
        let memo = Memo(title: "pending")
        context.insert(memo)
        context.processPendingChanges()
        #expect(context.hasChanges && context.insertedModelsArray.count == 1)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Memo>()) == 0)
        try context.save()
        memo.title = "changed"
        context.processPendingChanges()
        #expect(context.changedModelsArray.count == 1)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Memo>()).map(\.title) == ["pending"])
    }

    @Test func eachContextHasItsOwnEditingState() throws {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let one = ModelContext(container), two = ModelContext(container)
        #expect(one.editingState.id != two.editingState.id)
        #expect(one.editingState.id == one.editingState.id && one.editingState.author == nil)
        one.editingState.author = "importer"
        #expect(one.editingState.author == "importer" && two.editingState.author == nil)
    }
}
