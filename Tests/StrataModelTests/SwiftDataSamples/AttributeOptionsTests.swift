import Foundation
import StrataModel
import Testing

/// A model using every `Schema.Attribute.Option` SwiftData documents, written as SwiftData code
/// writes it (only the import changed).
@Model
final class Landmark {
    @Attribute(.unique, .spotlight) var name: String
    @Attribute(.allowsCloudEncryption) var privateNote: String = ""
    @Attribute(.ephemeral) var isSelected: Bool = false
    @Attribute(.transformable(by: "NSSecureUnarchiveFromDataTransformer")) var tags: [String] = []
    @Attribute(.codable) var coordinate: LandmarkCoordinate = LandmarkCoordinate(latitude: 0, longitude: 0)
    @Attribute(.externalStorage) var photo: Data = Data()
    @Attribute(.preserveValueOnDeletion) var visitedAt: Date?

    init(name: String) {
        self.name = name
    }
}

struct LandmarkCoordinate: Codable, Hashable {
    var latitude: Double
    var longitude: Double
}

@Suite struct AttributeOptionsTests {
    @Test(arguments: SampleStore.all) func everyOptionCompilesAndMeansWhatItCanOnLinux(_ store: SampleStore) throws {
        let directory = try SampleDirectory()
        let container = try ModelContainer(for: Landmark.self, configurations: store.configuration(in: directory.url))
        // `.ephemeral` is not persisted: the schema has no such attribute.
        let attributes = try #require(container.schema.entity(named: "Landmark")).attributes.map(\.name)
        #expect(!attributes.contains("isSelected") && attributes.contains("privateNote") && attributes.contains("tags"))
        #expect(try #require(container.schema.entity(named: "Landmark")).uniqueConstraints.count == 1)

        let context = ModelContext(container)
        let tower = Landmark(name: "Tower")
        tower.privateNote = "quiet at dawn"
        tower.tags = ["view", "old"]
        tower.coordinate = LandmarkCoordinate(latitude: 51.5, longitude: -0.08)
        tower.photo = Data([1, 2, 3])
        tower.isSelected = true
        context.insert(tower)
        try context.save()
        tower.isSelected = false
        #expect(!context.hasChanges)  // not persisted, so not a change to save

        let read = try #require(ModelContext(container).fetch(FetchDescriptor<Landmark>()).first)
        #expect(read.name == "Tower" && read.privateNote == "quiet at dawn" && read.tags == ["view", "old"])
        #expect(read.coordinate == LandmarkCoordinate(latitude: 51.5, longitude: -0.08) && read.photo == Data([1, 2, 3]))
        #expect(read.isSelected == false)
        #expect(Schema.Attribute.Option.transformable(by: "A") != .transformable(by: "B"))
    }
}
