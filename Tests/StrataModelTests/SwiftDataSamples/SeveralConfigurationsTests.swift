import Foundation
import StrataModel
import Testing

/// Several `ModelConfiguration`s in one container, as WWDC23's "Model your schema with SwiftData"
/// and the `ModelConfiguration` documentation write them: each configuration's schema names a group
/// of models, each group lives in a store of its own.
@Suite struct SeveralConfigurationsTests {
    /// Each backend paired with the next one, so every backend serves as both the first and the
    /// second store.
    static let pairs: [(SampleStore, SampleStore)] = SampleStore.all.indices.map {
        (SampleStore.all[$0], SampleStore.all[($0 + 1) % SampleStore.all.count])
    }

    @Test(arguments: pairs) func eachGroupLivesInItsOwnStore(_ recipesStore: SampleStore, _ memosStore: SampleStore) throws {
        let directory = try SampleDirectory()
        let recipesDirectory = directory.url.appendingPathComponent("recipes"), memosDirectory = directory.url.appendingPathComponent("memos")
        do {
            let fullSchema = Schema([Recipe.self, RecipeStep.self, Memo.self])
            let recipes = recipesStore.configuration(in: recipesDirectory, schema: Schema([Recipe.self, RecipeStep.self]))
            let memos = memosStore.configuration(in: memosDirectory, schema: Schema([Memo.self]))
            let container = try ModelContainer(for: fullSchema, configurations: recipes, memos)
            #expect(container.configurations == [recipes, memos])
            let context = ModelContext(container)
            let soup = Recipe(name: "Soup")
            soup.steps = [RecipeStep(text: "Boil", order: 1)]
            context.insert(soup)
            context.insert(Memo(title: "Buy leeks"))
            try context.save()
            #expect(!context.hasChanges)

            let other = ModelContext(container)
            #expect(try other.fetch(FetchDescriptor<Recipe>()).map { $0.steps.map(\.text) } == [["Boil"]])
            #expect(try other.fetch(FetchDescriptor<Memo>()).map(\.title) == ["Buy leeks"])
            #expect(try other.fetchCount(FetchDescriptor<RecipeStep>()) == 1)
            let memo = try #require(other.fetch(FetchDescriptor<Memo>()).first)
            #expect(other.model(for: memo.persistentModelID) as? Memo === memo)
            memo.title = "Buy more leeks"
            other.delete(try #require(other.fetch(FetchDescriptor<Recipe>()).first))
            try other.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<RecipeStep>()) == 0)  // the cascade ran in the recipes store
        }
        guard recipesStore.file != nil, memosStore.file != nil else { return }
        // Each store holds its group only: opened alone, the memos store is a store of memos.
        let memosAlone = try ModelContainer(for: Memo.self, configurations: memosStore.configuration(in: memosDirectory))
        #expect(try ModelContext(memosAlone).fetch(FetchDescriptor<Memo>()).map(\.title) == ["Buy more leeks"])
        #expect(memosAlone.schema.entities.map(\.name) == ["Memo"])
    }

    /// Memos in one in-memory store, recipes and their steps in a second, in that order.
    static func memosThenRecipesInMemory() throws -> ModelContainer {
        let memos = ModelConfiguration("memos", schema: Schema([Memo.self]), isStoredInMemoryOnly: true)
        let recipes = ModelConfiguration("recipes", schema: Schema([Recipe.self, RecipeStep.self]), isStoredInMemoryOnly: true)
        return try ModelContainer(for: Schema([Recipe.self, RecipeStep.self, Memo.self]), configurations: [memos, recipes])
    }

    @Test func aSaveThatFailsInOneStoreKeepsWhatTheOthersSaved() throws {
        let container = try SeveralConfigurationsTests.memosThenRecipesInMemory()
        let context = ModelContext(container)
        context.insert(Recipe(name: "Soup"))
        try context.save()

        let memo = Memo(title: "Saved")
        let duplicate = Recipe(name: "Soup")  // @Attribute(.unique) name
        context.insert(memo)
        context.insert(duplicate)
        let seen = SeenNotifications(context)
        #expect(throws: StrataError.self) { try context.save() }
        // The memos store saved its part: the memo is stored and no longer pending.
        #expect(try ModelContext(container).fetch(FetchDescriptor<Memo>()).map(\.title) == ["Saved"])
        #expect(context.insertedModelsArray.count == 1 && context.insertedModelsArray.first === duplicate)
        #expect(seen.seen == [ModelContext.willSave, ModelContext.didSave])
        // The failed part is still pending, to fix and save again.
        duplicate.name = "Stew"
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Recipe>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Soup", "Stew"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Memo>()) == 1)
    }

    @Test func aRelationshipAcrossStoresIsRefused() throws {
        let recipes = ModelConfiguration("recipes", schema: Schema([Recipe.self]), isStoredInMemoryOnly: true)
        let steps = ModelConfiguration("steps", schema: Schema([RecipeStep.self]), isStoredInMemoryOnly: true)
        #expect {
            _ = try ModelContainer(for: Recipe.self, RecipeStep.self, configurations: recipes, steps)
        } throws: { error in
            let error = error as? StrataError
            return error?.code == .invalidSchema && error?.message.contains("cannot cross stores") == true
        }
    }

    @Test func aMigrationPlanWorksOnOneStoreOnly() throws {
        let people = ModelConfiguration("people", schema: Schema([PeopleSchemaV3.Person.self]), isStoredInMemoryOnly: true)
        let rest = ModelConfiguration("rest", isStoredInMemoryOnly: true)
        #expect {
            _ = try ModelContainer(for: PeopleSchemaV3.Person.self, migrationPlan: PeopleMigrationPlan.self, configurations: people, rest)
        } throws: { error in
            (error as? StrataError)?.code == .unsupported
        }
    }

    @Test func everyEntityNeedsAConfigurationAndEachConfigurationItsOwnStore() throws {
        let directory = try SampleDirectory()
        let recipes = ModelConfiguration("recipes", schema: Schema([Recipe.self, RecipeStep.self]), isStoredInMemoryOnly: true)
        let memos = ModelConfiguration("memos", schema: Schema([Memo.self]), isStoredInMemoryOnly: true)
        #expect {
            _ = try ModelContainer(for: Recipe.self, RecipeStep.self, Memo.self, Sample.self, configurations: recipes, memos)
        } throws: { error in
            (error as? StrataError)?.code == .invalidSchema && "\(error)".contains("Sample")
        }
        // A configuration with no schema holds every entity the others leave out.
        let rest = ModelConfiguration("rest", isStoredInMemoryOnly: true)
        let container = try ModelContainer(for: Recipe.self, RecipeStep.self, Memo.self, configurations: memos, rest)
        let context = ModelContext(container)
        context.insert(Recipe(name: "Soup"))
        context.insert(Memo(title: "m"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Recipe>()) == 1)

        let url = directory.url.appendingPathComponent("shared.store")
        #expect {
            _ = try ModelContainer(for: Recipe.self, RecipeStep.self, Memo.self, configurations:
                ModelConfiguration("a", schema: Schema([Memo.self]), url: url), ModelConfiguration("b", schema: Schema([Recipe.self]), url: url))
        } throws: { error in
            (error as? StrataError)?.code == .invalidRequest
        }
    }
}
