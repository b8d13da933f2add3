import Foundation
import Strata
import StrataConformance
import Testing

/// `StoreCopy` into a backend without the `chosenKeys` capability (the guide's example, as a
/// third-party backend written before it): the copy renumbers from the destination's counter,
/// says how in its key map, and verifies through the map.
@Test func copyIntoAStoreThatChoosesNoKeysRenumbersAndMaps() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-copy-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    for folder in ["source", "copy"] { try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true) }
    let source = try ExampleFileStore(example.configuration(dir.appendingPathComponent("source"), FixtureDomain.schema))
    let reading = try #require(FixtureDomain.schema.entity(named: "Reading"))
    _ = try source.save(SaveRequest(inserted: try (1...20).map { try DefaultSnapshot.inserting(reading, values: ["value": .double(Double($0))]) }))
    _ = try source.save(SaveRequest(deleted: try source.fetch(FetchDescriptor(entity: "Reading")).filter { $0.persistentIdentifier.primaryKey % 4 != 0 }))
    let copy = try ExampleFileStore(example.configuration(dir.appendingPathComponent("copy"), FixtureDomain.schema))
    #expect(!copy.capabilities.contains(.chosenKeys))
    let report = try StoreCopy.copy(from: source, to: copy, options: .init(batchSize: 2))
    #expect(report.verified && report.records == 5 && !report.keyMap.keepsKeys && report.keyMap.renumberedEntities == ["Reading"])
    #expect([4, 8, 12, 16, 20].map { report.keyMap.destinationKey("Reading", $0) } == [1, 2, 3, 4, 5])
    #expect(try copy.fetchIdentifiers(FetchDescriptor(entity: "Reading")).map(\.primaryKey) == [1, 2, 3, 4, 5])
}
