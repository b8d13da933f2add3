import Foundation
import StrataModel
import Testing

/// A model kept apart from the trips, in a custom store of its own.
@Model final class Postcard {
    var text: String

    init(text: String) {
        self.text = text
    }
}

/// Several custom-store configurations in one container, as with several `ModelConfiguration`s:
/// each configuration's `schema` names the models its store holds.
@Suite struct SeveralCustomStoresTests {
    @Test func eachConfigurationsStoreHoldsItsGroup() throws {
        var trips = RecordingStoreConfiguration.unique()
        trips.schema = Schema([Trip.self, BucketListItem.self])
        var postcards = RecordingStoreConfiguration.unique()
        postcards.schema = Schema([Postcard.self])
        let container = try ModelContainer(for: Schema([Trip.self, BucketListItem.self, Postcard.self]), configurations: [trips, postcards])
        #expect(container.configurations.count == 2)
        let context = ModelContext(container)
        let rome = Trip(name: "Rome", destination: "Italy")
        rome.bucketList = [BucketListItem(title: "Colosseum")]
        context.insert(rome)
        context.insert(Postcard(text: "Wish you were here"))
        try context.save()

        func entities(_ configuration: RecordingStoreConfiguration) -> [String] {
            RecordingStore.tables.withLock { Set(($0[configuration.name] ?? [:]).values.map(\.persistentIdentifier.entityName)).sorted() }
        }
        #expect(entities(trips) == ["BucketListItem", "Trip"])
        #expect(entities(postcards) == ["Postcard"])
        let other = ModelContext(container)
        #expect(try other.fetch(FetchDescriptor<Postcard>()).map(\.text) == ["Wish you were here"])
        #expect(try other.fetch(FetchDescriptor<Trip>()).map { $0.bucketList.map(\.title) } == [["Colosseum"]])
    }

    @Test func aRelationshipAcrossCustomStoresIsRefused() throws {
        var trips = RecordingStoreConfiguration.unique()
        trips.schema = Schema([Trip.self])
        var items = RecordingStoreConfiguration.unique()
        items.schema = Schema([BucketListItem.self])
        #expect {
            _ = try ModelContainer(for: Trip.self, BucketListItem.self, configurations: trips, items)
        } throws: { error in
            (error as? StrataError)?.code == .invalidSchema
        }
    }

    /// `Schema([Trip.self])` reaches `BucketListItem`, so it has the shape (the fingerprint) of
    /// `Schema([Trip.self, BucketListItem.self])`: the schema value still knows it was made from
    /// `Trip` alone, whatever schema of that shape the process builds meanwhile (another test
    /// running in parallel, other code of the app). Before, the type set registered last answered
    /// for both, this container put both entities in the first store, and the relationship
    /// between the stores went through.
    @Test func schemasOfOneShapeKeepTheirOwnTypes() throws {
        var trips = RecordingStoreConfiguration.unique()
        trips.schema = Schema([Trip.self])
        var items = RecordingStoreConfiguration.unique()
        items.schema = Schema([BucketListItem.self])
        let both = Schema([Trip.self, BucketListItem.self])
        #expect(trips.schema == both)
        #expect {
            _ = try ModelContainer(for: Trip.self, BucketListItem.self, configurations: trips, items)
        } throws: { error in
            (error as? StrataError)?.code == .invalidSchema
        }
    }
}
