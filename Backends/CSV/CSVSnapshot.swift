import Foundation
@_spi(StrataEngine) import Strata

/// The CSV backend's own snapshot: a record kept as its row of CSV fields, converted to typed values
/// only when a value is read.
///
/// CSV is flat text, so this is the natural container for it: a snapshot read from a file costs no
/// conversion until someone asks for a value, and writing one back costs none at all. It conforms to
/// `DataStoreSnapshot`, so the suite, the engine and every caller use it without knowing it is special.
public struct CSVSnapshot: DataStoreSnapshot {
    /// The record's identifier.
    public let persistentIdentifier: PersistentIdentifier
    /// The entity.
    public let entity: EntitySchema
    /// The attribute fields, in the entity's attribute order (`nil`: an empty, unquoted field).
    public let fields: [CSVField?]
    /// Relationship values, in the entity's order.
    public let relationships: [RelationshipValue]
    /// Values given for an attribute of another type, kept as given so a store rejects them with
    /// `typeMismatch` instead of reading an unparsable field as `nil`.
    private let mismatched: [Int: Value]

    /// Builds a snapshot from typed values, encoding each as its field.
    public init(entity: EntitySchema, persistentIdentifier: PersistentIdentifier, attributes: [Value], relationships: [RelationshipValue]) {
        self.entity = entity
        self.persistentIdentifier = persistentIdentifier
        self.fields = attributes.map(CSVFieldCodec.encode)
        self.relationships = relationships
        var mismatched: [Int: Value] = [:]
        for (i, value) in attributes.enumerated() where !value.isNull && (i >= entity.attributeTypes.count || value.type != entity.attributeTypes[i]) {
            mismatched[i] = value
        }
        self.mismatched = mismatched
    }

    /// Builds a snapshot from fields as read from a file.
    init(entity: EntitySchema, persistentIdentifier: PersistentIdentifier, fields: [CSVField?], relationships: [RelationshipValue]) {
        self.entity = entity
        self.persistentIdentifier = persistentIdentifier
        self.fields = fields
        self.relationships = relationships
        self.mismatched = [:]
    }

    /// Decodes the field of attribute `index` as its declared type; a field that does not parse
    /// (which the store never writes) reads as `.null`.
    public func attributeValue(at index: Int) -> Value {
        if !mismatched.isEmpty, let value = mismatched[index] { return value }
        guard index < fields.count, let field = fields[index] else { return .null }
        let type = index < entity.attributeTypes.count ? entity.attributeTypes[index] : .string
        return CSVFieldCodec.decode(field, type) ?? .null
    }

    /// Every attribute, decoded.
    public var attributeValues: [Value] { fields.indices.map(attributeValue(at:)) }

    /// The relationship value at `index`.
    public func relationshipValue(at index: Int) -> RelationshipValue { relationships[index] }

    /// The stored relationship array.
    public var relationshipValues: [RelationshipValue] { relationships }
}
