import Foundation
@_spi(StrataEngine) import Strata

/// The store of `strata torture --migration`: `records` items (each in one of ten groups) written at
/// version 1, migrated v1 → v2 → v3 by a writer that is killed at a random moment; after every
/// kill the store must open at one of the three versions — never between — with every record.
///
/// - v2: `Item.name` renamed `title` (originalName), `Item.flag` added (default false), an index on
///   `Item.value`, `Group.label` made unique.
/// - v3: `Group` renamed `Team` (originalName), `Item.note` (optional) removed. On a backend that
///   takes a whole staged path in one atomic step (`StateMigratable`: every built-in backend,
///   SQLite included), v2 → v3 is a custom stage: `willMigrate` sets every item's `flag` to
///   whether its value is even (at v2), `didMigrate` appends " team" to every team's label (at
///   v3); a store at v3 must hold both, never one. A backend that migrates stage by stage (a
///   third-party one without `StateMigratable`) runs it as a lightweight stage.
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

    /// Migrates the store from its recorded version to version 3, one step per version;
    /// `inside` is called inside the custom stage's atomic step, with the records loaded and the
    /// store's writer lock held, before `willMigrate` runs; `reached` is called after each step
    /// with the version now recorded.
    public static func migrate<C: DataStoreConfiguration>(_ configuration: (Schema) -> C, inside: () -> Void = {}, reached: (Int) -> Void) throws {
        typealias Store = C.Store
        guard let version = try Store.recordedSchema(configuration(schema(1)))?.version?.major else {
            throw WorkloadError("the store records no version")
        }
        for next in (version + 1)...max(version + 1, 3) where next <= 3 {
            let migration = try SchemaMigration.lightweight(from: schema(next - 1), to: schema(next))
            if next == 3, let atomic = Store.self as? any StateMigratable.Type {
                try atomic.migrateStore(anyConfiguration: configuration(schema(3)), from: schema(2), to: schema(3)) { state in
                    inside()
                    let old = RecordEngine(state: state)
                    _ = try old.save(willMigrate { try old.fetch($0, as: DefaultSnapshot.self) })
                    let new = RecordEngine(state: try old.state.migrated(by: migration))
                    _ = try new.save(didMigrate { try new.fetch($0, as: DefaultSnapshot.self) })
                    return new.state
                }
            } else {
                try Store.migrateStore(configuration(schema(next)), migration)
            }
            reached(next)
        }
    }

    /// Whether the v2 → v3 step of `Store` is the custom stage (the backend is `StateMigratable`).
    public static func hasCustomStage<Store: DataStore>(_: Store.Type) -> Bool { Store.self is any StateMigratable.Type }

    /// The custom stage's `willMigrate`, at v2: every item's `flag` becomes whether its value is even.
    static func willMigrate<S: DataStoreSnapshot>(_ fetch: (FetchDescriptor) throws -> [S]) throws -> SaveRequest<S> {
        SaveRequest(updated: try fetch(FetchDescriptor(entity: "Item")).map { item in
            guard case .int(let value) = try item.value("value") else { throw WorkloadError("an item without a value") }
            return try item.updating(["flag": .bool(value % 2 == 0)])
        })
    }

    /// The custom stage's `didMigrate`, at v3: every team's label gets " team".
    static func didMigrate<S: DataStoreSnapshot>(_ fetch: (FetchDescriptor) throws -> [S]) throws -> SaveRequest<S> {
        SaveRequest(updated: try fetch(FetchDescriptor(entity: "Team")).map { team in
            guard case .string(let label) = try team.value("label") else { throw WorkloadError("a team without a label") }
            return try team.updating(["label": .string(label + " team")])
        })
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
        // The custom stage's two halves land together with v3, or not at all.
        let custom = version == 3 && hasCustomStage(Store.self)
        let suffix = custom ? " team" : ""
        let labels = Dictionary(uniqueKeysWithValues: groups.map { ($0.persistentIdentifier, $0.attributeValues[0]) })
        for item in items {
            let values = item.attributeValues
            guard case .int(let i) = values[1], values[0] == .string("item-\(i)"),
                  case .toOne(let group?) = item.relationshipValues[0], labels[group] == .string("group-\(i % 10)\(suffix)")
            else { throw WorkloadError("version \(version) holds a changed item or a half-applied custom stage: \(values), its group \(item.relationshipValues[0])") }
            if version >= 2, try item.value("flag") != .bool(custom && i % 2 == 0) {
                throw WorkloadError("version \(version) holds item-\(i) with flag \(try item.value("flag")): the custom stage's willMigrate \(custom ? "is missing" : "landed without its version")")
            }
        }
        return version
    }
}
