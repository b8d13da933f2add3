/// The values of one record, as a store hands it out and takes it in.
///
/// A backend picks its own snapshot type (`DataStore.Snapshot`); most use `DefaultSnapshot`, and a
/// backend with a special representation (CSV keeps rows of text) brings its own. The suite, the
/// engine and every caller build and read snapshots only through this protocol, so they never know
/// which type they hold.
///
/// Values are addressed by position — the entity's attribute and relationship order — not by name,
/// so reading a value costs an array access. Name-based access is `DefaultSnapshot`'s subscript.
///
/// Conformers must make `init(entity:persistentIdentifier:attributes:relationships:)` and the two
/// accessors agree: what goes in comes out.
public protocol DataStoreSnapshot: Sendable {
    /// The record's identifier: temporary before its first save, permanent after.
    var persistentIdentifier: PersistentIdentifier { get }
    /// The entity the record belongs to.
    var entity: EntitySchema { get }
    /// The value of the attribute at `index` in `entity.attributes`.
    func attributeValue(at index: Int) -> Value
    /// The value of the relationship at `index` in `entity.relationships`.
    func relationshipValue(at index: Int) -> RelationshipValue
    /// Every attribute value, in the entity's order. Has a default; a conformer that keeps an
    /// array should return it directly, since stores read this on every save.
    var attributeValues: [Value] { get }
    /// Every relationship value, in the entity's order. Has a default, like `attributeValues`.
    var relationshipValues: [RelationshipValue] { get }
    /// Builds a snapshot from values in the entity's property order.
    ///
    /// The arrays must have one element per attribute and per relationship; stores check the values'
    /// types when saving and reject mismatches with `typeMismatch`.
    init(entity: EntitySchema, persistentIdentifier: PersistentIdentifier, attributes: [Value], relationships: [RelationshipValue])
    /// A copy with a new identifier and every held identifier found in `remappedIdentifiers` rewritten.
    ///
    /// Stores and clients call this after a save to turn temporary identifiers into permanent ones.
    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: IdentifierRemapping) -> Self
    /// `request` with every snapshot rebuilt as this type, for a client that builds
    /// `DefaultSnapshot` requests and saves them to a store of another snapshot type (the model
    /// layer). Has an inlinable default (`DataStoreSnapshot+Converting.swift`); a conformer need not
    /// implement it.
    static func converting(_ request: SaveRequest<DefaultSnapshot>) -> SaveRequest<Self>
    /// The identifiers of `snapshots`, in order, for a client that reads every fetched record's
    /// identifier first (the model layer registers each in its identity map). Has an inlinable
    /// default (`DataStoreSnapshot+Identifiers.swift`); a conformer need not implement it.
    static func persistentIdentifiers(of snapshots: [Self]) -> [PersistentIdentifier]
}

extension DataStoreSnapshot {
    /// Every attribute value, in the entity's order.
    public var attributeValues: [Value] { entity.attributes.indices.map(attributeValue(at:)) }
    /// Every relationship value, in the entity's order.
    public var relationshipValues: [RelationshipValue] { entity.relationships.indices.map(relationshipValue(at:)) }

    /// The default `copy` for any snapshot: rebuilds through the initializer.
    public func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: IdentifierRemapping) -> Self {
        Self(
            entity: entity, persistentIdentifier: persistentIdentifier, attributes: attributeValues,
            relationships: relationshipValues.map { $0.remapped(remappedIdentifiers) })
    }

    /// `copy(persistentIdentifier:remappedIdentifiers:)` with a plain dictionary.
    public func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]) -> Self {
        copy(persistentIdentifier: persistentIdentifier, remappedIdentifiers: IdentifierRemapping(remappedIdentifiers))
    }

    /// A new snapshot for a record about to be inserted: a temporary identifier, attribute defaults,
    /// `nil` optionals and empty relationships. Non-optional attributes without a default start as
    /// `.null` and must be set before saving.
    public static func inserting(_ entity: EntitySchema, values: [String: Value] = [:], relationships: [String: RelationshipValue] = [:]) throws -> Self {
        var attributes = entity.attributes.map { $0.defaultValue ?? .null }
        var links = entity.relationships.map(RelationshipValue.empty(for:))
        try assign(values, relationships, of: entity, to: &attributes, &links)
        return Self(entity: entity, persistentIdentifier: .temporary(entity: entity.name), attributes: attributes, relationships: links)
    }

    /// The attribute value with this name; throws `unknownProperty` for a name the entity lacks.
    public func value(_ name: String) throws -> Value {
        guard let i = entity.attributeIndex(name) else { throw unknownProperty(name, in: entity) }
        return attributeValue(at: i)
    }

    /// The relationship value with this name; throws `unknownProperty` for a name the entity lacks.
    public func related(_ name: String) throws -> RelationshipValue {
        guard let i = entity.relationshipIndex(name) else { throw unknownProperty(name, in: entity) }
        return relationshipValue(at: i)
    }

    /// A copy with some attribute and relationship values replaced, by name.
    public func updating(_ values: [String: Value] = [:], relationships: [String: RelationshipValue] = [:]) throws -> Self {
        var attributes = attributeValues
        var links = relationshipValues
        try assign(values, relationships, of: entity, to: &attributes, &links)
        return Self(entity: entity, persistentIdentifier: persistentIdentifier, attributes: attributes, relationships: links)
    }
}

/// Writes values given by name into positional arrays; throws `unknownProperty` for a name the entity lacks.
private func assign(_ values: [String: Value], _ relationships: [String: RelationshipValue], of entity: EntitySchema, to attributes: inout [Value], _ links: inout [RelationshipValue]) throws {
    for (name, value) in values {
        guard let i = entity.attributeIndex(name) else { throw unknownProperty(name, in: entity) }
        attributes[i] = value
    }
    for (name, value) in relationships {
        guard let i = entity.relationshipIndex(name) else { throw unknownProperty(name, in: entity) }
        links[i] = value
    }
}

func unknownProperty(_ name: String, in entity: EntitySchema) -> StrataError {
    StrataError(.unknownProperty, "Entity '\(entity.name)' has no property '\(name)'.", entity: entity.name, properties: [name])
}
