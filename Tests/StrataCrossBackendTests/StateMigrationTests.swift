import Foundation
@_spi(StrataEngine) import Strata
import StrataBuiltinBackends
import StrataConformance
import Testing

/// A whole staged migration path in one atomic step (`StateMigratable`, what a plan with custom
/// stages runs through) keeps every record of the fixture's every relationship shape: attributes
/// (NaN and −0 too), to-one and to-many links, ordered lists on either side (inverse column, join
/// table), a symmetric many-to-many, keys and key counters. Every built-in backend takes it,
/// SQLite included (its custom stages are atomic since `SQLiteStateMigration`).
struct StateMigrationTests {
    /// One record as the store returns it: key, attributes, and links as keys (unordered lists
    /// sorted, ordered ones as stored).
    private struct Row: Equatable, CustomStringConvertible {
        let key: Int64
        let attributes: [Value]
        let links: [[Int64]]
        var description: String { "\(key) \(attributes) \(links)" }
    }

    private static func rows<Store: DataStore>(_ store: Store) throws -> [String: [Row]] {
        var result: [String: [Row]] = [:]
        for entity in store.schema.entities {
            result[entity.name] = try store.fetch(FetchDescriptor(entity: entity.name)).map { snapshot in
                let links = zip(entity.relationships, snapshot.relationshipValues).map { relationship, value -> [Int64] in
                    switch value {
                    case .toOne(let id): return id.map { [$0.primaryKey] } ?? []
                    case .toMany(let ids): return relationship.isOrdered ? ids.map(\.primaryKey) : ids.map(\.primaryKey).sorted()
                    }
                }
                return Row(key: snapshot.persistentIdentifier.primaryKey, attributes: snapshot.attributeValues, links: links)
            }.sorted { $0.key < $1.key }
        }
        return result
    }

    /// The fixture's sample plus the shapes it leaves out (a symmetric many-to-many, an ordered
    /// many-to-many whose inverse is unordered), and a deleted last record so a key counter
    /// stands above the largest key.
    private static func fill<Store: DataStore>(_ store: Store) throws -> Int64 {
        let ids = try FixtureDomain.writeSample(into: store)
        let schema = store.schema
        let members = try (0..<3).map { try Store.Snapshot.inserting(schema.requireEntity("Member"), values: ["name": .string("m\($0)")]) }
        let linked = try members[0].updating(relationships: ["friends": .toMany([members[1].persistentIdentifier, members[2].persistentIdentifier])])
        let partnered = try members[1].updating(relationships: ["partner": .toOne(members[2].persistentIdentifier)])
        _ = try store.save(SaveRequest(inserted: [linked, partnered, members[2]]))
        let authors = try store.fetch(FetchDescriptor(entity: "Author")), books = ids.filter { $0.entityName == "Book" }
        _ = try store.save(SaveRequest(updated: [try authors[0].updating(relationships: ["favorites": .toMany([books[1], books[0], books[2]])])]))
        let samples = try store.fetch(FetchDescriptor(entity: "Sample"))
        let last = try #require(samples.max { $0.persistentIdentifier.primaryKey < $1.persistentIdentifier.primaryKey })
        _ = try store.save(SaveRequest(deleted: [last]))
        return last.persistentIdentifier.primaryKey
    }

    private static func check<Factory: BuiltinStoreFactory>(_ factory: Factory, _ name: String, in dir: URL) throws {
        typealias Store = Factory.Store
        let stores = factory.stores
        defer { stores.destroy(dir) }
        let v1 = FixtureDomain.schema
        var entities = v1.entities.map(\.declaration)
        entities[entities.firstIndex { $0.name == "Library" }!].indexes.append(Index("name"))
        let v2 = try Schema(entities: entities, version: Schema.Version(2, 0, 0))
        let before: [String: [Row]], deleted: Int64
        do {
            let store = try Store(stores.configuration(dir, v1))
            deleted = try fill(store)
            before = try rows(store)
        }
        let atomic = try #require(Store.self as? any StateMigratable.Type, "\(name) takes a whole staged path")
        let migration = try SchemaMigration.lightweight(from: v1, to: v2)
        var seen: StoreState?
        try atomic.migrateStore(anyConfiguration: stores.configuration(dir, v2), from: v1, to: v2) { state in
            seen = state
            return try state.migrated(by: migration)
        }
        let loaded = try #require(seen)
        let sample = try v1.requireEntity("Sample")
        #expect(loaded.nextPrimaryKey(sample) == deleted + 1, "\(name): the loaded key counter of Sample")
        let store = try Store(stores.configuration(dir, v2))
        let after = try rows(store)
        #expect(try Store.recordedSchema(stores.configuration(dir, v2))?.version == Schema.Version(2, 0, 0), "\(name)")
        for entity in v1.entities.map(\.name) {
            #expect(after[entity] == before[entity], "\(name): \(entity) changed in the migration\nbefore \(before[entity] ?? [])\nafter  \(after[entity] ?? [])")
        }
        // The key counter survives: a new record never takes the deleted record's key.
        let inserted = try Store.Snapshot.inserting(v2.requireEntity("Sample"), values: ["label": "new"])
        let key = try #require(try store.save(SaveRequest(inserted: [inserted])).remappedIdentifiers[inserted.persistentIdentifier]).primaryKey
        #expect(key > deleted, "\(name): the new record took key \(key); \(deleted) was used before the migration")
    }

    @Test(arguments: BuiltinStores.referenceFirst.map(\.name))
    func aWholeStagedPathKeepsRecordsLinksOrderAndKeys(backend: String) throws {
        let store = try #require(BuiltinStores.named(backend))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-state-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.check(store.factory, backend, in: dir)
    }
}
