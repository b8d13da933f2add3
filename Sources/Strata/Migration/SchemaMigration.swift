/// A migration of a store's data from one schema to another: the change list and, per destination
/// entity, where each value comes from. What `DataStore.migrateStore` applies atomically.
///
/// Made by `lightweight(from:to:)` (inference, with renames from `originalName`); the mappings
/// are positional so a backend rewrites records without looking names up:
///
/// ```swift
/// let migration = try SchemaMigration.lightweight(from: recorded, to: schema)
/// print(migration.changes)        // [add attribute Trip.isPinned, rename attribute Trip.title to name]
/// try SQLiteStore.migrateStore(configuration, migration)
/// ```
public struct SchemaMigration: Sendable {
    /// The schema the store holds now.
    public let source: Schema
    /// The schema the store holds afterwards.
    public let destination: Schema
    /// What changes, in a fixed order (entities, then per entity attributes, relationships,
    /// unique constraints, indexes).
    public let changes: [SchemaChange]
    /// Per destination entity (in `destination.entities` order), how its records are made.
    public let entities: [EntityMapping]

    /// How one destination entity's records are made.
    public struct EntityMapping: Sendable, Hashable {
        /// The index in `source.entities` of the entity whose records become this one's, or `nil`
        /// for a new entity (no records).
        public let source: Int?
        /// Per destination attribute, where its value comes from.
        public let attributes: [AttributeMapping]
        /// Per destination relationship, the index of the source relationship whose links it
        /// keeps, or `nil` for a new relationship (no targets). Primary keys never change.
        public let relationships: [Int?]

    }

    /// Where one destination attribute's value comes from.
    public enum AttributeMapping: Sendable, Hashable {
        /// The value of the source attribute at this index.
        case copy(Int)
        /// The value of the source attribute at this index, `nil` replaced by the value (an
        /// optional attribute made required with a default).
        case copyFillingNil(Int, Value)
        /// This value for every record (a new attribute: its default, or `nil`).
        case constant(Value)
    }

    /// A migration made of its parts; `lightweight(from:to:)` is the usual way.
    public init(source: Schema, destination: Schema, changes: [SchemaChange], entities: [EntityMapping]) {
        self.source = source
        self.destination = destination
        self.changes = changes
        self.entities = entities
    }

    /// Whether records of destination entity `entity` are copied unchanged (same attributes and
    /// relationships in the same order as its source entity's): a backend may keep their stored form.
    public func isIdentity(_ entity: Int) -> Bool {
        let mapping = entities[entity]
        guard let s = mapping.source, source.entities[s].attributes.count == mapping.attributes.count,
              source.entities[s].relationships.count == mapping.relationships.count
        else { return false }
        for (i, a) in mapping.attributes.enumerated() { guard case .copy(i) = a else { return false } }
        for (i, r) in mapping.relationships.enumerated() { guard r == i else { return false } }
        return true
    }

    /// Whether there is nothing to do to the data or declarations (the fingerprints are equal).
    public var isEmpty: Bool { source.fingerprint == destination.fingerprint }

    /// The attribute values of a destination record of entity `entity` made from a source record's.
    public func attributes(_ entity: Int, from values: [Value]) -> [Value] {
        entities[entity].attributes.map { mapping in
            switch mapping {
            case .copy(let i): values[i]
            case .copyFillingNil(let i, let fill): values[i].isNull ? fill : values[i]
            case .constant(let v): v
            }
        }
    }

    /// The relationship values of a destination record of entity `entity` made from a source
    /// record's (identifiers are re-addressed to the destination entity names).
    public func relationships(_ entity: Int, from values: [RelationshipValue], storeIdentifier: String) -> [RelationshipValue] {
        let e = destination.entities[entity]
        return entities[entity].relationships.enumerated().map { i, source in
            let name = e.destinationNames[i]
            func rename(_ id: PersistentIdentifier) -> PersistentIdentifier {
                PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: name, primaryKey: id.primaryKey)
            }
            guard let source else { return e.relationshipIsToMany[i] ? .toMany([]) : .toOne(nil) }
            switch values[source] {
            case .toOne(let id): return .toOne(id.map(rename))
            case .toMany(let ids): return .toMany(ids.map(rename))
            }
        }
    }
}
