// SwiftData code written from Apple's documentation of `ModelContext`, `PersistentModel`,
// `FetchDescriptor`, `#Unique`/`#Index`, `@Relationship` and `@ModelActor` (the "same" rows of
// docs/models.md's table), with only `import SwiftData` replaced, run on every built-in backend.
import Foundation
import StrataModel
import Testing

@Model
final class Journey {
    #Unique<Journey>([\.name, \.startDate])
    #Index<Journey>([\.name], [\.startDate])

    var name: String
    @Attribute(originalName: "destinationName") var destination: String
    var startDate: Date
    @Relationship(deleteRule: .cascade, minimumModelCount: 0, maximumModelCount: 20, inverse: \JourneyStop.journey)
    var stops: [JourneyStop] = []

    init(name: String, destination: String, startDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

@Model
final class JourneyStop {
    var title: String
    var journey: Journey?

    init(title: String) {
        self.title = title
    }
}

@ModelActor
actor JourneyImporter {
    func importJourneys(named names: [String]) throws -> [PersistentIdentifier] {
        let journeys = names.map { Journey(name: $0, destination: "Imported", startDate: Date(timeIntervalSince1970: 0)) }
        for journey in journeys { modelContext.insert(journey) }
        try modelContext.save()
        return journeys.map(\.persistentModelID)
    }
}

@Suite struct DocumentedContextSampleTests {
    static func day(_ n: Double) -> Date { Date(timeIntervalSince1970: n * 86_400) }

    @Test(arguments: SampleStore.all) func contextLifecycle(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        let schema = Schema([Journey.self, JourneyStop.self], version: Schema.Version(1, 2, 0))
        #expect(schema.version == Schema.Version(1, 2, 0))
        let container = try ModelContainer(for: schema, configurations: store.configuration(in: directory.url, schema: schema))
        #expect(container.schema.entities.map(\.name).sorted() == ["Journey", "JourneyStop"])
        let context = ModelContext(container)
        #expect(context.container === container)

        // Insert: the related stop comes along.
        let rome = Journey(name: "Rome", destination: "Italy", startDate: Self.day(10))
        context.insert(rome)
        rome.stops.append(JourneyStop(title: "Colosseum"))
        #expect(rome.modelContext === context && context.hasChanges)
        #expect(context.insertedModelsArray.count == 2)
        try context.save()
        #expect(!context.hasChanges && context.insertedModelsArray.isEmpty)
        let registered: Journey? = context.registeredModel(for: rome.persistentModelID)
        #expect(registered === rome)

        // Change, then roll back.
        rome.destination = "Lazio"
        #expect(rome.hasChanges && context.changedModelsArray.count == 1)
        context.rollback()
        #expect(rome.destination == "Italy" && !context.hasChanges)

        // A transaction saves what its block did.
        try context.transaction {
            context.insert(Journey(name: "Paris", destination: "France", startDate: Self.day(20)))
            context.insert(Journey(name: "Oslo", destination: "Norway", startDate: Self.day(30)))
        }
        #expect(!context.hasChanges)

        // Fetch with a predicate, a sort, a limit and an offset; count; identifiers.
        let cutoff = Self.day(15)
        var upcoming = FetchDescriptor<Journey>(predicate: #Predicate { $0.startDate > cutoff }, sortBy: [SortDescriptor(\.name, order: .reverse)])
        #expect(try context.fetch(upcoming).map(\.name) == ["Paris", "Oslo"])
        upcoming.fetchLimit = 1
        upcoming.fetchOffset = 1
        #expect(try context.fetch(upcoming).map(\.name) == ["Oslo"])
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 3)
        let ids = try context.fetchIdentifiers(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(ids.first == rome.persistentModelID && ids.count == 3)

        // A model's `id` is its persistentModelID, usable in a predicate.
        let romeID = rome.persistentModelID
        #expect(try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.persistentModelID == romeID })).first === rome)

        // Enumerate in batches.
        var seen: [String] = []
        try context.enumerate(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]), batchSize: 2) { seen.append($0.name) }
        #expect(seen == ["Oslo", "Paris", "Rome"])

        // The same record in another context is == and hashes alike.
        let other = ModelContext(container)
        let romeThere = try #require(other.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "Rome" })).first)
        #expect(romeThere == rome && romeThere !== rome && Set([romeThere, rome]).count == 1)

        // #Unique on (name, startDate): a second Rome on the same day is refused.
        context.insert(Journey(name: "Rome", destination: "Elsewhere", startDate: Self.day(10)))
        #expect(throws: StrataError.self) { try context.save() }
        context.rollback()

        // Delete one (the cascade takes its stops), then many by predicate.
        context.delete(rome)
        #expect(rome.isDeleted && context.deletedModelsArray.count == 1)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<JourneyStop>()) == 0)
        try context.delete(model: Journey.self, where: #Predicate { $0.name == "Paris" })
        try context.delete(model: Journey.self, includeSubclasses: true)
        try context.save()  // SwiftData deletes at the next save; Strata already has
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Journey>()) == 0)
    }

    @Test(arguments: SampleStore.all) func modelActorImportsInTheBackground(_ store: SampleStore) async throws {
        let directory = try SampleDirectory()
        let container = try ModelContainer(for: Journey.self, configurations: store.configuration(in: directory.url))
        let importer = JourneyImporter(modelContainer: container)
        let ids = try await importer.importJourneys(named: ["Lima", "Quito"])
        let context = ModelContext(container)
        let names = ids.compactMap { (context.model(for: $0) as? Journey)?.name }
        #expect(names == ["Lima", "Quito"])
    }
}
