import Foundation
import StrataConformance
import StrataModel

/// The custom stores of this example as the conformance suite opens them: each behind
/// `CustomStoreAdapter`, one store per case directory.
public enum CustomStoreFactories {
    /// WWDC24's JSON store, its file in the case directory.
    public static let wwdcJSON = StoreFactory<CustomStoreAdapter<JSONStore>> { directory, schema in
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = JSONStoreConfiguration(name: "wwdc-json", fileURL: directory.appendingPathComponent("records.json"))
        return CustomStoreConfiguration(file, schema: schema, capabilities: [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess])
    }

    /// The memory-backed custom store, named after the case directory.
    public static let swiftDataMemory = StoreFactory<CustomStoreAdapter<MemoryBackedStore>> { directory, schema in
        CustomStoreConfiguration(
            MemoryBackedStoreConfiguration(name: directory.path), schema: schema,
            capabilities: [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess])
    }

    /// The names `strata-custom-store` (and `strata conformance --backend`) accept, with a line each.
    public static let names: [(name: String, summary: String)] = [
        ("wwdc-json", "WWDC24's sample JSON store (SwiftData's DataStore protocol), as the session writes it"),
        ("swiftdata-memory", "a SwiftData-protocol store over the memory backend: the custom-store path's control"),
    ]

    /// Runs the suite on the custom store called `name`.
    public static func conformance(_ name: String) -> [ConformanceResult]? {
        switch name {
        case "wwdc-json": ConformanceSuite.run(on: wwdcJSON)
        case "swiftdata-memory": ConformanceSuite.run(on: swiftDataMemory)
        default: nil
        }
    }
}
