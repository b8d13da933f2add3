import CustomStoreExample
import Foundation
import StrataModel
import Testing

/// WWDC24's JSON store (Examples/CustomStore) through `ModelContainer` and `ModelContext`, as
/// SwiftData code uses a custom store.
@Suite final class CustomStoreContainerTests {
    let directory: URL
    let fileURL: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("custom-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("trips.json")
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func container() throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(name: "trips", fileURL: fileURL))
    }

    @Test func insertFetchUpdateDeleteAcrossContainers() throws {
        do {
            let context = ModelContext(try container())
            context.insert(Trip(name: "Paris", destination: "France"))
            context.insert(Trip(name: "Rome", destination: "Italy"))
            context.insert(Trip(name: "Oslo", destination: "Norway"))
            try context.save()
        }
        #expect(FileManager.default.fileExists(atPath: fileURL.path))

        let context = ModelContext(try container())
        let sorted = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(sorted.map(\.name) == ["Oslo", "Paris", "Rome"])
        let italy = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Italy" }))
        #expect(italy.map(\.name) == ["Rome"])

        italy[0].destination = "Lazio"
        context.delete(sorted[0])
        try context.save()

        let reopened = ModelContext(try container())
        let left = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)]))
        #expect(left.map(\.name) == ["Rome", "Paris"])
        #expect(left.map(\.destination) == ["Lazio", "France"])
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @Test func predicateSortAndWindowTogether() throws {
        let context = ModelContext(try container())
        for (n, city) in ["Lyon", "Nice", "Lille", "Nantes", "Brest"].enumerated() {
            context.insert(Trip(name: city, destination: "France", startDate: Date(timeIntervalSince1970: Double(n))))
        }
        context.insert(Trip(name: "Porto", destination: "Portugal"))
        try context.save()

        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "France" && $0.name != "Nice" }, sortBy: [SortDescriptor(\.name)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        #expect(try ModelContext(try container()).fetch(descriptor).map(\.name) == ["Lille", "Lyon"])
    }

    @Test func relationshipsInsertedTogetherSurviveReopening() throws {
        do {
            let context = ModelContext(try container())
            let trip = Trip(name: "Kyoto", destination: "Japan")
            context.insert(trip)
            for title in ["Temple", "Garden"] {
                let item = BucketListItem(title: title)
                item.trip = trip
                context.insert(item)
            }
            try context.save()
            #expect(!trip.persistentModelID.isTemporary)
            #expect(trip.persistentModelID.storeIdentifier == "trips.json")
        }
        let context = ModelContext(try container())
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.bucketList.map(\.title).sorted() == ["Garden", "Temple"])
        let items = try context.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.trip?.name == "Kyoto" }, sortBy: [SortDescriptor(\.title)]))
        #expect(items.map(\.title) == ["Garden", "Temple"])
        #expect(items.allSatisfy { $0.trip === trip })

        // A new item attached to a stored trip.
        let extra = BucketListItem(title: "Market")
        extra.trip = trip
        context.insert(extra)
        try context.save()
        let again = ModelContext(try container())
        let reloaded = try #require(try again.fetch(FetchDescriptor<Trip>()).first)
        #expect(reloaded.bucketList.map(\.title).sorted() == ["Garden", "Market", "Temple"])
    }

    @Test func aSchemaAndAnArrayOfConfigurationsOpenTheStoreToo() throws {
        let schema = Schema([Trip.self])
        let configuration = JSONStoreConfiguration(name: "trips", schema: schema, fileURL: fileURL)
        let context = ModelContext(try ModelContainer(for: schema, configurations: [configuration]))
        context.insert(Trip(name: "Bern", destination: "Switzerland"))
        try context.save()
        #expect(try ModelContext(try container()).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Bern"])
    }

    @Test func schemalessConfigurationsLeaveEveryModelToTheFirst() throws {
        // Two configurations without a schema: the first holds every model, the second none and
        // opens no store (SeveralCustomStoresTests covers configurations that split the models).
        let otherURL = directory.appendingPathComponent("other.json")
        let container = try ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(name: "trips", fileURL: fileURL), JSONStoreConfiguration(name: "other", fileURL: otherURL))
        let context = ModelContext(container)
        context.insert(Trip(name: "Oslo", destination: "Norway"))
        try context.save()
        #expect(FileManager.default.fileExists(atPath: fileURL.path) && !FileManager.default.fileExists(atPath: otherURL.path))
    }

    @Test func theStoreFileHoldsPermanentIdentifiersOnly() throws {
        let context = ModelContext(try container())
        let trip = Trip(name: "Lima", destination: "Peru")
        context.insert(trip)
        let item = BucketListItem(title: "Coast")
        item.trip = trip
        context.insert(item)
        try context.save()
        let stored = try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: fileURL))
        let text = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
        #expect(stored.count == 2)
        #expect(!text.contains("\"isTemporary\":true"))
    }
}

/// A migration plan reaches a custom store's `init(_:migrationPlan:)`, as in SwiftData, where the
/// store migrates its own data; the framework does not migrate it (CustomStoreConformanceTests).
@Suite struct CustomStoreMigrationPlanTests {
    enum TripsV1: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
        static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self] }
    }

    enum TripsPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [TripsV1.self] }
        static var stages: [MigrationStage] { [] }
    }

    @Test func theStoreReceivesThePlan() throws {
        let with = RecordingStoreConfiguration.unique()
        _ = try ModelContainer(for: Trip.self, migrationPlan: TripsPlan.self, configurations: with)
        #expect(RecordingStore.plans.withLock { $0[with.name] } == "TripsPlan: 1.0.0")
        let without = RecordingStoreConfiguration.unique()
        _ = try ModelContainer(for: Trip.self, configurations: without)
        #expect(RecordingStore.plans.withLock { $0[without.name] } == "none")
    }

    @Test func theFrameworkRefusesToMigrateACustomStoreSaying() throws {
        let configuration = CustomStoreConfiguration<RecordingStore>(RecordingStoreConfiguration.unique(), schema: try Schema(models: [Trip.self]))
        let error = try #require(throws: StrataError.self) {
            try CustomStoreAdapter<RecordingStore>.migrateStore(configuration, SchemaMigration.lightweight(from: configuration.schema, to: configuration.schema))
        }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("init(_:migrationPlan:)"))
        #expect(throws: StrataError.self) { try CustomStoreAdapter<RecordingStore>.recordedSchema(configuration) }
    }
}

/// What the framework does when a custom store asks it to filter or sort in memory.
@Suite struct InMemoryFilterAndSortTests {
    func context(_ configuration: RecordingStoreConfiguration) throws -> ModelContext {
        ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
    }

    func fill(_ configuration: RecordingStoreConfiguration) throws {
        let context = try context(configuration)
        for (name, destination) in [("b", "x"), ("d", "y"), ("a", "x"), ("c", "x")] { context.insert(Trip(name: name, destination: destination)) }
        try context.save()
    }

    @Test func aRefusedPredicateIsAskedAgainWithoutItAndAppliedInMemory() throws {
        let configuration = RecordingStoreConfiguration.unique(refusesPredicates: true, refusesSorts: false)
        try fill(configuration)
        let found = try context(configuration).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "x" }))
        #expect(found.map(\.name).sorted() == ["a", "b", "c"])
        let seen = configuration.seen.suffix(2)
        #expect(seen.map(\.hasPredicate) == [true, false])
        #expect(seen.map(\.answered) == [false, true])
    }

    @Test func aRefusedSortIsAskedAgainWithoutItAndAppliedInMemory() throws {
        let configuration = RecordingStoreConfiguration.unique(refusesPredicates: false, refusesSorts: true)
        try fill(configuration)
        let found = try context(configuration).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)]))
        #expect(found.map(\.name) == ["d", "c", "b", "a"])
        let seen = configuration.seen.suffix(2)
        #expect(seen.map(\.sortCount) == [1, 0])
        #expect(seen.map(\.answered) == [false, true])
    }

    @Test func bothRefusedMeansThreeAsks() throws {
        let configuration = RecordingStoreConfiguration.unique()
        try fill(configuration)
        let found = try context(configuration).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "x" }, sortBy: [SortDescriptor(\.name)]))
        #expect(found.map(\.name) == ["a", "b", "c"])
        #expect(configuration.seen.suffix(3).map { [$0.hasPredicate ? 1 : 0, $0.sortCount] } == [[1, 1], [0, 1], [0, 0]])
    }

    @Test func aStoreThatAnswersGetsTheRealPredicateSortAndWindowAndIsTrusted() throws {
        // This store evaluates the request's own `Predicate<Trip>` and `SortDescriptor<Trip>`s on
        // `Trip` objects and applies the window: one ask, and its answer is the result.
        let configuration = RecordingStoreConfiguration.unique(refusesPredicates: false, refusesSorts: false)
        try fill(configuration)
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "x" }, sortBy: [SortDescriptor(\.name, order: .reverse)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 1
        let before = configuration.seen.count
        #expect(try context(configuration).fetch(descriptor).map(\.name) == ["b"])
        #expect(configuration.seen.count == before + 1)
        #expect(configuration.seen.last == RecordingStore.Seen(hasPredicate: true, sortCount: 1, answered: true))
        #expect(try context(configuration).fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "y" })) == 1)
    }

    @Test func aStoreThatAnswersWronglyIsTrustedAsSwiftDataTrustsIt() throws {
        // It claims to run the predicate and returns everything: the framework does not filter
        // behind a store that answered (SwiftData does not either), so the wrong answer shows.
        // The suite catches such a store the same way (CustomStoreConformanceTests).
        let configuration = RecordingStoreConfiguration.unique(refusesPredicates: false, refusesSorts: false, ignoreWhatItAnswers: true)
        try fill(configuration)
        let found = try context(configuration).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "x" }))
        #expect(found.map(\.name).sorted() == ["a", "b", "c", "d"])
    }

    @Test func aStoreThatIgnoresTheWindowHasItAppliedForIt() throws {
        // WWDC24's store returns every record for every fetch: more than fetchLimit records
        // means the window was ignored, and the framework applies it.
        let configuration = RecordingStoreConfiguration.unique(refusesPredicates: false, refusesSorts: false, ignoreWhatItAnswers: true)
        try fill(configuration)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.fetchLimit = 2
        #expect(try context(configuration).fetch(descriptor).count == 2)
    }
}

/// SwiftData's `PersistentIdentifier.identifier(for:entityName:primaryKey:)`.
@Suite struct CustomStoreIdentifierTests {
    @Test func sameKeySameIdentifier() throws {
        let key = UUID()
        let a = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: key)
        let b = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: key)
        let c = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: UUID())
        #expect(a == b)
        #expect(a != c)
        #expect(!a.isTemporary && a.storeIdentifier == "s" && a.entityName == "Trip")
    }

    @Test func smallIntegerKeysAreKept() throws {
        #expect(try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: 42).primaryKey == 42)
        #expect(try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: -1).primaryKey >= 1 << 62)
        #expect(try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: "42").primaryKey >= 1 << 62)
    }

    @Test func emptyNamesAreRefused() {
        #expect(throws: StrataError.self) { try PersistentIdentifier.identifier(for: "", entityName: "Trip", primaryKey: 1) }
    }

    @Test func defaultSnapshotCopyRemapsReferences() throws {
        let temporary = PersistentIdentifier.temporary(entity: "Trip")
        let permanent = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: 7)
        let item = try PersistentIdentifier.identifier(for: "s", entityName: "BucketListItem", primaryKey: 8)
        let snapshot = DefaultSnapshot(Strata.DefaultSnapshot(
            entity: try Schema(models: [Trip.self]).requireEntity("BucketListItem"), persistentIdentifier: item,
            attributes: [.string("t"), .bool(false)], relationships: [.toOne(temporary)]))
        let copied = snapshot.copy(persistentIdentifier: item, remappedIdentifiers: [temporary: permanent])
        let kept = snapshot.copy(persistentIdentifier: item)
        let entity = try Schema(models: [Trip.self]).requireEntity("BucketListItem")
        #expect(copied.coreSnapshot(entity).relationships == [.toOne(permanent)])
        #expect(kept.coreSnapshot(entity).relationships == [.toOne(temporary)])
        let decoded = try JSONDecoder().decode(DefaultSnapshot.self, from: JSONEncoder().encode(copied))
        #expect(decoded == copied)
    }
}

/// SwiftData's history members of the custom-store protocol: declared, and honest about what the
/// framework does with them (history through a custom store: see `HistoryProviding`).
@Suite struct CustomStoreHistoryTests {
    @Test func aSaveResultKeepsTheStoresHistoryToken() {
        let token = DefaultHistoryToken(StoreHistoryToken(storeIdentifier: "s", transaction: 3))
        let result = DataStoreSaveChangesResult<DefaultSnapshot>(for: "s", historyToken: token)
        #expect((result.historyToken as? DefaultHistoryToken)?.tokenValue == 3)
        #expect(DataStoreSaveChangesResult<DefaultSnapshot>(for: "s").historyToken == nil)
    }

    @Test func historyThroughACustomStoreWithoutItIsRefused() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: RecordingStoreConfiguration.unique()))
        let error = try #require(throws: StrataError.self) { try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        #expect(error.code == .unsupported)
    }

    /// SwiftData's way: the context asks a store that conforms to `HistoryProviding` for its own
    /// transactions, and hands it `deleteHistory`'s descriptor.
    @Test func aHistoryProvidingStoreAnswersTheContext() throws {
        let configuration = JournalingStoreConfiguration.unique()
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
        context.author = "importer"
        context.insert(Trip(name: "Lisbon", destination: "PT"))
        context.insert(Trip(name: "Porto", destination: "PT"))
        try context.save()
        context.author = "cleaner"
        context.delete(try context.fetch(FetchDescriptor<Trip>()).first!)
        try context.save()

        let all = try context.fetchHistory(HistoryDescriptor<JournalTransaction>())
        #expect(all.map(\.author) == ["importer", "cleaner"])
        #expect(all.map(\.insertedCount) == [2, 0] && all.map(\.deletedCount) == [0, 1])
        let byCleaner = try context.fetchHistory(HistoryDescriptor<JournalTransaction>(predicate: #Predicate { $0.author == "cleaner" }))
        #expect(byCleaner.map(\.transactionIdentifier) == [2])

        try context.deleteHistory(HistoryDescriptor<JournalTransaction>(predicate: #Predicate { $0.transactionIdentifier == 1 }))
        #expect(try context.fetchHistory(HistoryDescriptor<JournalTransaction>()).map(\.transactionIdentifier) == [2])
        // A descriptor of another transaction type is not the store's: refused, not answered empty.
        let error = try #require(throws: StrataError.self) { try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        #expect(error.code == .unsupported)
    }
}
