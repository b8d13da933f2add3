/// One persisted property of a model type, as `@Model` describes it for the schema.
public struct ModelPropertyMetadata {
    /// The property name (the attribute or relationship name in the entity).
    public let name: String
    /// The position among the class's persisted properties.
    public let ordinal: Int
    /// The previous name, recorded for migrations (`@Attribute(originalName:)`).
    public let originalName: String?
    /// The version mark, recorded in the schema (`@Attribute(hashModifier:)`, `@Relationship(hashModifier:)`).
    public let hashModifier: String?
    /// An attribute or a relationship.
    public let kind: Kind
    /// Throws `typeMismatch` when a stored value does not fit the Swift type; `nil` when every
    /// value of the attribute's core type fits (see `ModelContext`'s check of fetched records).
    public let storedValueCheck: ((Value) throws -> Void)?
    /// The value a property's initializer gives when it is not a literal (`= Date.now`,
    /// `= Priority.normal`, `= []`), evaluated when called. Not part of the schema (a literal
    /// default is, as `Attribute.defaultValue`): a migration calls it once to fill a new required
    /// attribute in every stored record, as SwiftData fills the default it evaluates
    /// (docs/migrations.md, "Defaults that are not literals").
    public let initialValue: (() -> Value)?

    /// What the property is.
    public enum Kind {
        /// An attribute, as the core declares it.
        case attribute(Attribute)
        /// A relationship to another model type.
        case relationship(ModelRelationshipMetadata)
    }

    /// Describes a property.
    public init(name: String, ordinal: Int, originalName: String?, hashModifier: String? = nil, kind: Kind, storedValueCheck: ((Value) throws -> Void)? = nil, initialValue: (() -> Value)? = nil) {
        self.name = name
        self.ordinal = ordinal
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.kind = kind
        self.storedValueCheck = storedValueCheck
        self.initialValue = initialValue
    }

    /// The relationship description, if this is one.
    var relationship: ModelRelationshipMetadata? {
        if case .relationship(let r) = kind { return r }
        return nil
    }
}

/// A relationship of a model type: destination type, shape, rules and the inverse if declared.
public struct ModelRelationshipMetadata {
    /// The destination model type.
    public let destination: any PersistentModel.Type
    /// Whether it holds many targets.
    public let isToMany: Bool
    /// Whether a to-one may be empty.
    public let isOptional: Bool
    /// What deleting the owner does to the targets.
    public let deleteRule: DeleteRule
    /// The fewest targets of a to-many, if bounded.
    public let minimumCount: Int?
    /// The most targets of a to-many, if bounded.
    public let maximumCount: Int?
    /// The inverse property on the destination, when `inverse:` names one.
    public let inverseName: String?
    /// Whether `inverse:` was given (a key path that names no persisted property is an error).
    public let inverseGiven: Bool
    /// Whether `@Relationship(.unique)` makes it a single-property unique constraint.
    public let isUnique: Bool
}

/// The `#Unique` and `#Index` lists of a model type, by property name.
public struct ModelConstraints: Sendable {
    /// Composite unique constraints.
    public let unique: [[String]]
    /// Indexes.
    public let indexes: [[String]]
    /// Describes the lists.
    public init(unique: [[String]], indexes: [[String]]) {
        self.unique = unique
        self.indexes = indexes
    }
}
