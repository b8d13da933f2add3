import Strata

/// A record as the suite handles it, independent of the backend's snapshot type.
///
/// The harness converts to and from `Store.Snapshot` only through `DataStoreSnapshot`'s initializer
/// and accessors, so the suite exercises exactly the protocol every caller relies on.
public struct SuiteRecord: Sendable, Hashable, CustomStringConvertible {
    /// The identifier.
    public var id: PersistentIdentifier
    /// The entity.
    public let entity: EntitySchema
    /// Attribute values in the entity's order.
    public var attributes: [Value]
    /// Relationship values in the entity's order.
    public var relationships: [RelationshipValue]

    init(id: PersistentIdentifier, entity: EntitySchema, attributes: [Value], relationships: [RelationshipValue]) {
        self.id = id
        self.entity = entity
        self.attributes = attributes
        self.relationships = relationships
    }

    init<S: DataStoreSnapshot>(_ snapshot: S) {
        self.init(id: snapshot.persistentIdentifier, entity: snapshot.entity, attributes: snapshot.attributeValues, relationships: snapshot.relationshipValues)
    }

    func snapshot<S: DataStoreSnapshot>(as: S.Type) -> S {
        S(entity: entity, persistentIdentifier: id, attributes: attributes, relationships: relationships)
    }

    /// An attribute by name (`.null` for an unknown name, which a case would notice).
    public subscript(_ name: String) -> Value {
        get { entity.attributeIndex(name).map { attributes[$0] } ?? .null }
        set { if let i = entity.attributeIndex(name) { attributes[i] = newValue } }
    }

    /// The targets of a relationship by name, in stored order.
    public func targets(_ name: String) -> [PersistentIdentifier] {
        entity.relationshipIndex(name).map { relationships[$0].targets } ?? []
    }

    /// The to-one target of a relationship by name.
    public func target(_ name: String) -> PersistentIdentifier? {
        entity.relationshipIndex(name).flatMap { relationships[$0].target }
    }

    /// Sets a to-one relationship.
    public mutating func set(_ name: String, to target: PersistentIdentifier?) {
        if let i = entity.relationshipIndex(name) { relationships[i] = .toOne(target) }
    }

    /// Sets a to-many relationship.
    public mutating func set(_ name: String, to targets: [PersistentIdentifier]) {
        if let i = entity.relationshipIndex(name) { relationships[i] = .toMany(targets) }
    }

    /// The same record with unordered to-many targets sorted, for comparisons across backends.
    var normalized: SuiteRecord {
        var copy = self
        for (i, r) in entity.relationships.enumerated() where r.isToMany && !r.isOrdered {
            copy.relationships[i] = .toMany(relationships[i].targets.sorted())
        }
        return copy
    }

    /// Equal when identifier, entity name and every value are equal.
    public static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.entity.name == b.entity.name && a.attributes == b.attributes && a.relationships == b.relationships
    }

    /// Hashes the identifier and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(attributes)
    }

    /// `Entity p<key> {name: value, …}`.
    public var description: String {
        let values = zip(entity.attributes, attributes).map { "\($0.name): \($1)" }
        let links = zip(entity.relationships, relationships).map { "\($0.name): \($1.targets.map { "p\($0.primaryKey)" })" }
        return "\(entity.name) \(id.isTemporary ? "t" : "p")\(id.primaryKey) {\((values + links).joined(separator: ", "))}"
    }
}
