import Foundation
import StrataBuiltinBackends
import StrataModel
import Testing

/// A model with no attributes: only a list.
@Model final class Marker {
    @Relationship(deleteRule: .cascade, inverse: \Marked.marker) var items: [Marked] = []
    init() {}
}

/// The other side of `Marker.items`, with nothing but its to-one.
@Model final class Marked {
    var marker: Marker?
    init() {}
}

/// A model with nothing stored at all.
@Model final class Blank {
    init() {}
}

/// Schemas of unusual shapes, on every backend: entities without attributes or without any
/// property, and a schema of many entities.
@Suite struct SchemaShapeTests {
    @Test(arguments: ModelBackend.all) func entitiesWithoutAttributes(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [Marker.self, Blank.self]
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            for n in 0..<3 {
                let marker = Marker()
                marker.items = (0..<n).map { _ in Marked() }
                context.insert(marker)
                context.insert(Blank())
            }
            context.insert(Marked())
            try context.save()
        }
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            let markers = try context.fetch(FetchDescriptor<Marker>())
            #expect(markers.map(\.items.count) == [0, 1, 2], "\(backend)")
            #expect(try context.fetchCount(FetchDescriptor<Marked>()) == 4 && context.fetchCount(FetchDescriptor<Blank>()) == 3, "\(backend)")
            #expect(try context.fetchCount(FetchDescriptor<Marked>(predicate: #Predicate { $0.marker == nil })) == 1, "\(backend)")
            context.delete(markers[2])
            let blanks = try context.fetch(FetchDescriptor<Blank>())
            context.delete(blanks[1])
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        #expect(try context.fetchCount(FetchDescriptor<Marked>()) == 2 && context.fetchCount(FetchDescriptor<Blank>()) == 2, "\(backend): after reopen")
        #expect(try context.fetch(FetchDescriptor<Marker>()).map(\.items.count) == [0, 1])
    }

    static let manyEntities = 150

    /// A schema of many entities, each with a unique attribute, an index and a list of the next.
    static func manySchema() throws -> Schema {
        try Schema(entities: (0..<manyEntities).map { n in
            Entity("Entity\(n)") {
                Attribute("name", .string, unique: true)
                Attribute("size", .int, default: 0, indexed: true)
                Relationship.toMany("next", "Entity\((n + 1) % manyEntities)", inverse: "previous")
                Relationship.toOne("previous", "Entity\((n + manyEntities - 1) % manyEntities)", inverse: "next")
            }
        })
    }

    @Test(arguments: BuiltinStores.referenceFirst) func aSchemaOfManyEntities(_ backend: BuiltinStore) throws {
        try Self.manyEntities(backend.factory)
    }

    static func manyEntities<F: BuiltinStoreFactory>(_ factory: F) throws {
        let stores = factory.stores
        let schema = try manySchema()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer {
            stores.destroy(dir)
            try? FileManager.default.removeItem(at: dir)
        }
        do {
            let store = try F.Store(stores.configuration(dir, schema))
            var inserted: [F.Store.Snapshot] = []
            for entity in schema.entities {
                inserted.append(try F.Store.Snapshot.inserting(entity, values: ["name": .string(entity.name), "size": .int(Int64(entity.name.count))]))
            }
            let result = try store.save(SaveRequest(inserted: inserted))
            #expect(result.remappedIdentifiers.count == manyEntities)
        }
        let store = try F.Store(stores.configuration(dir, schema))
        for entity in schema.entities {
            let found = try store.fetch(Strata.FetchDescriptor(entity: entity.name, predicate: .compare("size", .greaterOrEqual, .int(7))))
            #expect(found.count == 1, "\(F.Store.self): \(entity.name) after reopen")
        }
    }
}
