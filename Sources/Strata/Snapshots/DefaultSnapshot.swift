/// The snapshot most backends use: two arrays in the entity's property order.
///
/// No dictionary of string keys, no boxing: reading a value is an array index, and copying a
/// snapshot shares its storage until one side writes.
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The record's identifier.
    public var persistentIdentifier: PersistentIdentifier
    /// The entity.
    public let entity: EntitySchema
    /// Attribute values, in `entity.attributes` order.
    public var attributes: [Value]
    /// Relationship values, in `entity.relationships` order.
    public var relationships: [RelationshipValue]

    /// Builds a snapshot from values in the entity's order.
    public init(entity: EntitySchema, persistentIdentifier: PersistentIdentifier, attributes: [Value], relationships: [RelationshipValue]) {
        self.entity = entity
        self.persistentIdentifier = persistentIdentifier
        self.attributes = attributes
        self.relationships = relationships
    }

    /// The attribute value at `index`.
    public func attributeValue(at index: Int) -> Value { attributes[index] }
    /// The relationship value at `index`.
    public func relationshipValue(at index: Int) -> RelationshipValue { relationships[index] }

    /// The stored attribute array, without copying.
    public var attributeValues: [Value] { attributes }
    /// The stored relationship array, without copying.
    public var relationshipValues: [RelationshipValue] { relationships }

    /// Reads or writes an attribute by name; reading an unknown name gives `.null`, writing one is ignored.
    public subscript(_ name: String) -> Value {
        get { entity.attributeIndex(name).map { attributes[$0] } ?? .null }
        set { if let i = entity.attributeIndex(name) { attributes[i] = newValue } }
    }

    /// Equal when identifier, entity and every value are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.persistentIdentifier == rhs.persistentIdentifier && lhs.entity === rhs.entity
            && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
    }

    /// Hashes the identifier and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(persistentIdentifier)
        hasher.combine(attributes)
        hasher.combine(relationships)
    }
}
