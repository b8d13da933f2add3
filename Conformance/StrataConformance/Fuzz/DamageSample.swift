import Foundation
import Strata

/// The store the damage fuzzer damages: the fixture sample (every entity, relationship shape and
/// value kind), then a few ordinary saves, so a backend with a journal has journal lines and a
/// backend that writes per-save files has several generations of them.
public enum DamageSample {
    /// How many saves follow the fixture sample.
    public static let generations = 3

    /// Applies generation `generation` to `store`: 0 writes the fixture sample; each later one
    /// inserts a tag, renames a library and (at generation 2) deletes a note.
    public static func write<Store: DataStore>(generation: Int, into store: Store) throws {
        guard generation > 0 else {
            try FixtureDomain.writeSample(into: store)
            return
        }
        let tag = try Store.Snapshot.inserting(try store.schema.requireEntity("Tag"), values: ["name": .string("added in \(generation)")])
        let annex = try store.fetch(FetchDescriptor(entity: "Library", predicate: .compare("name", .equal, .string("Annex"))))
        let renamed = try annex.map { try $0.updating(["city": .string("moved in \(generation)")]) }
        let notes = generation == 2 ? try store.fetch(FetchDescriptor(entity: "Note")) : []
        _ = try store.save(SaveRequest(inserted: [tag], updated: renamed, deleted: notes))
    }
}
