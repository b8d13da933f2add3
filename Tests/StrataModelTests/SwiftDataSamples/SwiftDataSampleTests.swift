import Foundation
import StrataMemory
import StrataModel
import StrataSQLite
import StrataJSON
import StrataXML
import StrataLMDB
import StrataCSV
import Testing

/// SwiftData code as Apple's documentation writes it (container setup from `ModelContainer`,
/// `ModelConfiguration` and `Schema`; `model(for:)`), with only the import changed, run on every
/// built-in backend through the URL extension that picks it.
@Suite struct SwiftDataSampleTests {
    @Test(arguments: SampleStore.all) func documentedSetupRunsOnEveryBackend(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        do {
            // From the ModelConfiguration and ModelContainer documentation.
            let schema = Schema([Recipe.self, RecipeStep.self])
            let modelConfiguration = store.configuration(in: directory.url, schema: schema)
            let container = try ModelContainer(for: schema, configurations: [modelConfiguration])
            let context = ModelContext(container)

            let soup = Recipe(name: "Soup", summary: "Hot")
            soup.steps = [RecipeStep(text: "Boil", order: 1), RecipeStep(text: "Serve", order: 2)]
            context.insert(soup)
            try context.save()
            let id = soup.persistentModelID

            let soups = try context.fetch(FetchDescriptor<Recipe>(predicate: #Predicate { $0.name == "Soup" }))
            #expect(soups.count == 1 && soups.first === soup)
            #expect(container.configurations.count == 1 && container.configurations.first == modelConfiguration)

            // model(for:) returns `any PersistentModel`; SwiftData code casts it.
            let other = ModelContext(container)
            if let found = other.model(for: id) as? Recipe {
                #expect(found.name == "Soup" && found.steps.map(\.text).sorted() == ["Boil", "Serve"])
            } else {
                Issue.record("model(for:) as? Recipe gave nil for a saved recipe")
            }
            #expect(other.model(for: id) as? RecipeStep == nil)
        }
        guard store.file != nil else { return }
        // Reopened the other documented way: model types and a variadic configuration.
        let reopened = try ModelContainer(for: Recipe.self, RecipeStep.self, configurations: store.configuration(in: directory.url))
        let names = try ModelContext(reopened).fetch(FetchDescriptor<Recipe>()).map(\.name)
        #expect(names == ["Soup"])
    }

    @Test(arguments: SampleStore.all) func urlExtensionPicksTheBackend(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        let container = try ModelContainer(for: Memo.self, configurations: store.configuration(in: directory.url))
        let opened = container.configuration
        switch store.file.map({ URL(fileURLWithPath: $0).pathExtension }) {
        case nil: #expect(opened is MemoryStoreConfiguration)
        case "store", "sqlite": #expect(opened is SQLiteStoreConfiguration)
        case "json": #expect(opened is JSONStoreConfiguration)
        case "xml": #expect(opened is XMLStoreConfiguration)
        case "lmdb": #expect(opened is LMDBStoreConfiguration)
        case "csv": #expect(opened is CSVStoreConfiguration)
        default: Issue.record("no expectation for \(store)")
        }
    }

    @Test func inMemoryContainersAreEachEmpty() throws {
        // SwiftData's test setup: each in-memory container is a fresh store.
        let first = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        ModelContext(first).insert(Memo(title: "a"))
        let context = ModelContext(first)
        context.insert(Memo(title: "b"))
        try context.save()
        let second = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<Memo>()) == 0)
        #expect(try ModelContext(first).fetchCount(FetchDescriptor<Memo>()) == 1)
        #expect(first.configurations.first?.url.path == "/dev/null")
    }

    @Test func previewContainerForModelTypes() throws {
        // The preview/test setup of Apple's samples: a configuration for model types, in memory.
        let config = ModelConfiguration(for: Recipe.self, isStoredInMemoryOnly: true)
        #expect(config.isStoredInMemoryOnly && config.allowsSave && config.name == "default")
        #expect(config.schema?.entities.map(\.name).sorted() == ["Recipe", "RecipeStep"])
        let container = try ModelContainer(for: Recipe.self, configurations: config)
        let context = ModelContext(container)
        context.insert(Recipe(name: "Tea"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Recipe>()) == 1)
        #expect(ModelConfiguration().url.lastPathComponent == "default.store" && !ModelConfiguration().isStoredInMemoryOnly)
    }

    @Test(arguments: SampleStore.files) func allowsSaveFalseOpensReadOnly(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        do {
            let writer = ModelContext(try ModelContainer(for: Memo.self, configurations: store.configuration(in: directory.url)))
            writer.insert(Memo(title: "kept"))
            try writer.save()
        }
        let reader = ModelContext(try ModelContainer(for: Memo.self, configurations: store.configuration(in: directory.url, allowsSave: false)))
        #expect(try reader.fetch(FetchDescriptor<Memo>()).map(\.title) == ["kept"])
        reader.insert(Memo(title: "refused"))
        #expect(throws: StrataError.self) { try reader.save() }
        do { try reader.save() } catch let error as StrataError { #expect(error.code == .readOnlyStore) }
        #expect(reader.hasChanges)
    }

    @Test func readOnlyStoreThatDoesNotExistIsAnError() throws {
        let directory = try SampleDirectory()
        let missing = ModelConfiguration(url: directory.url.appendingPathComponent("missing.store"), allowsSave: false)
        #expect(throws: StrataError.self) { try ModelContainer(for: Memo.self, configurations: missing) }
        let memory = ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: false)
        do {
            _ = try ModelContainer(for: Memo.self, configurations: memory)
            Issue.record("an in-memory store that allows no save opened")
        } catch let error as StrataError {
            #expect(error.code == .invalidRequest)
        }
    }

    @Test func cloudKitAndGroupContainerOptions() throws {
        let directory = try SampleDirectory()
        // Accepted: no meaning on Linux.
        for (n, configuration) in [
            ModelConfiguration("a", isStoredInMemoryOnly: true, groupContainer: .identifier("group.com.example"), cloudKitDatabase: .none),
            ModelConfiguration("b", isStoredInMemoryOnly: true, groupContainer: .none, cloudKitDatabase: .automatic),
            ModelConfiguration("c", url: directory.url.appendingPathComponent("c.store"), cloudKitDatabase: .none),
        ].enumerated() {
            let container = try ModelContainer(for: Memo.self, configurations: configuration)
            #expect(container.configurations.first?.name == ["a", "b", "c"][n])
            #expect(configuration.groupAppContainerIdentifier == (n == 0 ? "group.com.example" : nil))
        }
        // Refused: an explicit CloudKit database.
        do {
            _ = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: directory.url.appendingPathComponent("d.store"), cloudKitDatabase: .private("iCloud.com.example")))
            Issue.record("a CloudKit private database was accepted")
        } catch let error as StrataError {
            #expect(error.code == .unsupported && error.message.contains("iCloud.com.example"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("d.store").path))
    }

    @Test func schemalessConfigurationsAndForeignSchemas() throws {
        let directory = try SampleDirectory()
        let one = ModelConfiguration("one", url: directory.url.appendingPathComponent("one.store"))
        let two = ModelConfiguration("two", url: directory.url.appendingPathComponent("two.store"))
        // Two configurations without a schema: the first holds every entity, the second none (and
        // opens no store). SeveralConfigurationsTests covers configurations that split the models.
        let container = try ModelContainer(for: Memo.self, configurations: one, two)
        #expect(container.configurations == [one, two])
        #expect(FileManager.default.fileExists(atPath: one.url.path) && !FileManager.default.fileExists(atPath: two.url.path))
        let foreign = ModelConfiguration(schema: Schema([Recipe.self, RecipeStep.self]), isStoredInMemoryOnly: true)
        do {
            _ = try ModelContainer(for: Memo.self, configurations: foreign)
            Issue.record("a configuration naming entities the container lacks opened")
        } catch let error as StrataError {
            #expect(error.code == .invalidSchema && error.message.contains("Recipe"))
        }
    }

    @Test func schemaFromModelTypes() throws {
        let schema = Schema([Recipe.self], version: Schema.Version(2, 1, 0))
        // Related types come along, as in SwiftData.
        #expect(schema.entities.map(\.name).sorted() == ["Recipe", "RecipeStep"])
        #expect(schema.version == Schema.Version(2, 1, 0) && schema.version.description == "2.1.0")
        #expect(Schema.Version(1, 0, 0) < Schema.Version(1, 0, 1))
        #expect(schema.entity(named: "Recipe")?.attributes.map(\.name).contains("createdAt") == true)
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(container.schema == schema)

        // A schema not made from model types has no classes for its entities.
        let handMade = try Schema { Entity("Memo") { Attribute("title", .string) } }
        #expect(throws: StrataError.self) { try ModelContainer(for: handMade, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]) }

        // Model types that do not form a schema: SwiftData's Schema(_:) does not throw, the
        // container does, with the reason.
        let broken = Schema([BadInverse.self])
        do {
            _ = try ModelContainer(for: broken, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            Issue.record("an invalid schema opened")
        } catch let error as StrataError {
            #expect(error.code == .invalidSchema && error.message.contains("BadInverse"))
        }
    }

    @Test func modelForIdentifierReturnsAnyPersistentModel() throws {
        let container = try ModelContainer(for: Recipe.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let pie = Recipe(name: "Pie")
        context.insert(pie)
        // A pending insert, by its temporary identifier.
        #expect(context.model(for: pie.persistentModelID) as? Recipe === pie)
        try context.save()
        let id = pie.persistentModelID
        #expect(context.model(for: id) as? Recipe === pie)

        let other = ModelContext(container)
        let deleting = try #require(other.model(for: id) as? Recipe)
        other.delete(deleting)
        try other.save()
        // The store no longer holds the record: a placeholder of no model type, carrying the id.
        let gone = ModelContext(container).model(for: id)
        #expect(gone as? Recipe == nil && gone.persistentModelID == id)
        // An identifier of an entity the container does not have.
        let foreign = PersistentIdentifier.temporary(entity: "Nowhere")
        #expect(ModelContext(container).model(for: foreign) as? Recipe == nil)
        // The typed form still throws the reason.
        #expect(throws: StrataError.self) { try ModelContext(container).model(for: id, as: Recipe.self) }
    }

    @Test func optionalTransientNeedsNoDefault() throws {
        let directory = try SampleDirectory()
        let url = directory.url.appendingPathComponent("memos.store")
        do {
            let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
            let memo = Memo(title: "t")
            #expect(memo.draft == nil)
            memo.draft = "unsaved"
            context.insert(memo)
            try context.save()
            #expect(memo.draft == "unsaved")
        }
        let memo = try #require(try ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))).fetch(FetchDescriptor<Memo>()).first)
        #expect(memo.title == "t" && memo.draft == nil)
        #expect(Memo.schemaMetadata.map(\.name) == ["title", "body"])
    }

    @Test func nonFinalModelsDecodeNothing() throws {
        // A non-final model gets its own `required init(from:)`; it refuses like every model's.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Recipe.self, from: Data("{}".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Memo.self, from: Data("{}".utf8)) }
    }

    @Test func preserveValueOnDeletionIsAccepted() throws {
        let option: Schema.Attribute.Option = .preserveValueOnDeletion
        #expect(option == .preserveValueOnDeletion)
        let recipe = try #require(Recipe.schemaMetadata.first { $0.name == "createdAt" })
        guard case .attribute(let attribute) = recipe.kind else { Issue.record("createdAt is not an attribute"); return }
        #expect(attribute.type == .date && !attribute.isUnique)
    }

    @Test func swiftDataErrorMatchesStrataErrors() throws {
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        var caught = false
        do {
            _ = try context.fetch(FetchDescriptor<Memo>(predicate: #Predicate { $0.title.count > 3 }))
        } catch SwiftDataError.unsupportedPredicate {
            caught = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(caught)

        let directory = try SampleDirectory()
        let url = directory.url.appendingPathComponent("broken.json")
        try Data("not json".utf8).write(to: url)
        do {
            _ = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))
            Issue.record("a damaged store opened")
        } catch SwiftDataError.loadIssueModelContainer {
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(!(SwiftDataError.unknownSchema ~= StrataError(.unsupportedPredicate, "x")))
        #expect(SwiftDataError.unknownSchema ~= SwiftDataError.unknownSchema)
    }

    @Test func backendConfigurationsKeepWorking() throws {
        let directory = try SampleDirectory()
        let url = directory.url.appendingPathComponent("direct.sqlite")
        let container = try ModelContainer(for: Memo.self, configurations: SQLiteStoreConfiguration(url: url, schema: .empty))
        let described = try #require(container.configurations.first)
        #expect(described.url == url && described.allowsSave && !described.isStoredInMemoryOnly)
        let memory = try ModelContainer(for: Memo.self, configurations: MemoryStoreConfiguration(name: "described-\(UUID())", schema: .empty))
        #expect(memory.configurations.first?.isStoredInMemoryOnly == true)
    }
}

/// A model whose inverse names an attribute: not a valid schema.
@Model final class BadInverse {
    var name: String = ""
    @Relationship(inverse: \BadInverse.name) var other: BadInverse?
    init() {}
}
