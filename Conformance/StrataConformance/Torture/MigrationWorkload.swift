import Foundation
import Strata

/// The store of `strata torture --migration`: `records` items (each in one of ten groups) written at
/// version 1, migrated v1 → v2 → v3 by a writer that is killed at a random moment; after every
/// kill the store must open at one of the three versions — never between — with every record.
///
/// - v2: `Item.name` renamed `title` (originalName), `Item.flag` added (default false), an index on
///   `Item.value`, `Group.label` made unique.
/// - v3: `Group` renamed `Team` (originalName), `Item.note` (optional) removed.
public enum MigrationWorkload {
    /// The schema of version 1, 2 or 3.
    public static func schema(_ version: Int) -> Schema {
        let v2 = version >= 2, v3 = version >= 3
        let group = v3 ? "Team" : "Group"
        var item = Entity("Item") {
            Attribute(v2 ? "title" : "name", .string, originalName: v2 ? "name" : nil)
            Attribute("value", .int, indexed: v2)
            Relationship.toOne("group", group, inverse: "items")
        }
        if !v3 { item.attributes.append(Attribute("note", .string, optional: true)) }
        if v2 { item.attributes.append(Attribute("flag", .bool, default: false)) }
        var owner = Entity(group) {
            Attribute("label", .string, unique: v2)
            Relationship.toMany("items", "Item", inverse: "group", deleteRule: .cascade)
        }
        if v3 { owner.originalName = "Group" }
        // Declarations that validate by construction.
        return (try? Schema(entities: [item, owner], version: Schema.Version(version, 0, 0))) ?? { preconditionFailure("the migration workload's schemas are valid") }()
    }

    /// Writes version 1 with `records` items into a new store, in one save.
    public static func write<C: DataStoreConfiguration>(_ configuration: (Schema) -> C, records: Int) throws {
        typealias Store = C.Store
        let v1 = schema(1)
        let store = try Store(configuration(v1))
        let groups = try (0..<10).map { try Store.Snapshot.inserting(v1.entity(named: "Group")!, values: ["label": .string("group-\($0)")]) }
        var items: [Store.Snapshot] = []
        for i in 0..<records {
            items.append(try Store.Snapshot.inserting(v1.entity(named: "Item")!, values: ["name": .string("item-\(i)"), "value": .int(Int64(i)), "note": .string("n")], relationships: ["group": .toOne(groups[i % 10].persistentIdentifier)]))
        }
        _ = try store.save(SaveRequest(inserted: groups + items))
    }

    /// Migrates the store from its recorded version to version 3, one lightweight step per version;
    /// `reached` is called after each step with the version now recorded.
    public static func migrate<C: DataStoreConfiguration>(_ configuration: (Schema) -> C, reached: (Int) -> Void) throws {
        typealias Store = C.Store
        guard let version = try Store.recordedSchema(configuration(schema(1)))?.version?.major else {
            throw WorkloadError("the store records no version")
        }
        for next in (version + 1)...max(version + 1, 3) where next <= 3 {
            try Store.migrateStore(configuration(schema(next)), SchemaMigration.lightweight(from: schema(next - 1), to: schema(next)))
            reached(next)
        }
    }

    /// Reads the store after a kill: the recorded version, whose schema must be exactly that
    /// version's, and every record with its content.
    ///
    /// - Throws: `WorkloadError` for a store between versions, a lost or changed record.
    public static func check<C: DataStoreConfiguration>(_ configuration: (Schema) -> C, records: Int) throws -> Int {
        typealias Store = C.Store
        guard let recorded = try Store.recordedSchema(configuration(schema(1))), let version = recorded.version?.major, (1...3).contains(version) else {
            throw WorkloadError("the store records no known version")
        }
        let expected = schema(version)
        guard recorded.fingerprint == expected.fingerprint else {
            throw WorkloadError("the store records version \(version) with another schema (between versions): \(recorded.canonicalDescription ?? [])")
        }
        var readOnly = configuration(expected)
        readOnly.isReadOnly = true
        let store = try Store(readOnly)
        let items = try store.fetch(FetchDescriptor(entity: "Item"))
        let groups = try store.fetch(FetchDescriptor(entity: version >= 3 ? "Team" : "Group"))
        guard items.count == records, groups.count == 10 else {
            throw WorkloadError("version \(version) holds \(items.count) items and \(groups.count) groups; \(records) and 10 were written")
        }
        let labels = Dictionary(uniqueKeysWithValues: groups.map { ($0.persistentIdentifier, $0.attributeValues[0]) })
        for item in items {
            let values = item.attributeValues
            guard case .int(let i) = values[1], values[0] == .string("item-\(i)"),
                  case .toOne(let group?) = item.relationshipValues[0], labels[group] == .string("group-\(i % 10)")
            else { throw WorkloadError("version \(version) holds a changed item: \(values)") }
        }
        return version
    }
}
