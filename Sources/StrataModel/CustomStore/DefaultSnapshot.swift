/// SwiftData's ready-made snapshot: a record's identifier and its values by property name.
///
/// A custom store keeps and returns these as they are; they encode with `Codable` into a
/// self-describing form (the identifier, then attribute and relationship values by name), so a
/// store can write them to a file and read them back without the schema, as WWDC24's JSON store
/// does. Unlike the core's positional `Strata.DefaultSnapshot`, it does not hold its entity: the
/// adapter matches it to the schema by the identifier's entity name.
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The record's identifier.
    public let persistentIdentifier: PersistentIdentifier
    /// Attribute values by property name.
    var attributes: [String: Value]
    /// Relationship values by property name.
    var relationships: [String: RelationshipValue]

    init(persistentIdentifier: PersistentIdentifier, attributes: [String: Value], relationships: [String: RelationshipValue]) {
        self.persistentIdentifier = persistentIdentifier
        self.attributes = attributes
        self.relationships = relationships
    }

    /// A copy under `persistentIdentifier`, with the identifiers its relationships hold rewritten
    /// where `remappedIdentifiers` lists them.
    public func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?) -> DefaultSnapshot {
        var links = relationships
        if let remappedIdentifiers, !remappedIdentifiers.isEmpty {
            let map = IdentifierRemapping(remappedIdentifiers)
            links = links.mapValues { $0.remapped(map) }
        }
        return DefaultSnapshot(persistentIdentifier: persistentIdentifier, attributes: attributes, relationships: links)
    }

    private enum CodingKeys: String, CodingKey {
        case persistentIdentifier, attributes, relationships
    }

    /// Decodes the form `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        persistentIdentifier = try c.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        attributes = try c.decode([String: Value].self, forKey: .attributes)
        relationships = try c.decode([String: RelationshipValue].self, forKey: .relationships)
    }

    /// Encodes the identifier and the values by name (each value as `Value`'s `[type, payload]`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(persistentIdentifier, forKey: .persistentIdentifier)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(relationships, forKey: .relationships)
    }
}

/// Strata's own bridge to the core's positional snapshots (SwiftData has no core to bridge to): a
/// custom store that keeps its records in a Strata backend converts with these.
extension DefaultSnapshot {
    /// The snapshot of a core record, values by name.
    public init(_ snapshot: Strata.DefaultSnapshot) {
        let entity = snapshot.entity
        var attributes: [String: Value] = [:]
        for (i, a) in entity.attributes.enumerated() where i < snapshot.attributes.count { attributes[a.name] = snapshot.attributes[i] }
        var relationships: [String: RelationshipValue] = [:]
        for (i, r) in entity.relationships.enumerated() where i < snapshot.relationships.count { relationships[r.name] = snapshot.relationships[i] }
        self.init(persistentIdentifier: snapshot.persistentIdentifier, attributes: attributes, relationships: relationships)
    }

    /// The core record of this snapshot in `entity`'s property order: a property it lacks is `nil`
    /// (empty for a relationship); values of names the entity lacks are dropped.
    public func coreSnapshot(_ entity: EntitySchema) -> Strata.DefaultSnapshot {
        Strata.DefaultSnapshot(
            entity: entity, persistentIdentifier: persistentIdentifier,
            attributes: entity.attributes.map { attributes[$0.name] ?? .null },
            relationships: entity.relationships.map { relationships[$0.name] ?? .empty(for: $0) })
    }
}
