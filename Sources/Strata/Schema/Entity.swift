/// The declaration of one entity, as written in code; `Schema` validates it into an `EntitySchema`.
///
/// ```swift
/// Entity("Item") {
///     Attribute("name", .string, unique: true)
///     Relationship.toOne("owner", "Owner", inverse: "items")
///     UniqueConstraint("owner", "name")
/// }
/// ```
public struct Entity: Sendable, Hashable, Codable {
    /// The entity name, unique in the schema.
    public var name: String
    /// Attributes, in declaration order (the order snapshots use).
    public var attributes: [Attribute]
    /// Relationships, in declaration order (the order snapshots use).
    public var relationships: [Relationship]
    /// Unique constraints beyond the per-attribute `unique:` shorthand.
    public var uniqueConstraints: [UniqueConstraint]
    /// Indexes beyond the per-attribute `indexed:` shorthand.
    public var indexes: [Index]
    /// The name this entity had in the previous version of the schema, when it was renamed:
    /// lightweight migration keeps its records. Not part of the fingerprint.
    public var originalName: String?

    /// Declares an entity from its members.
    public init(_ name: String, @EntityBuilder _ members: () -> [EntityMember]) {
        self.init(name, members: members())
    }

    /// Declares an entity from an array of members.
    public init(_ name: String, members: [EntityMember]) {
        self.name = name
        self.attributes = []
        self.relationships = []
        self.uniqueConstraints = []
        self.indexes = []
        for member in members {
            switch member {
            case .attribute(let a): attributes.append(a)
            case .relationship(let r): relationships.append(r)
            case .unique(let u): uniqueConstraints.append(u)
            case .index(let i): indexes.append(i)
            }
        }
    }
}

/// One member of an entity declaration; what `EntityBuilder` collects.
public enum EntityMember: Sendable, Hashable {
    /// An attribute.
    case attribute(Attribute)
    /// A relationship.
    case relationship(Relationship)
    /// A unique constraint.
    case unique(UniqueConstraint)
    /// An index.
    case index(Index)
}

/// Collects `Attribute`, `Relationship`, `UniqueConstraint` and `Index` lines into an entity.
@resultBuilder
public enum EntityBuilder {
    /// Wraps an attribute.
    public static func buildExpression(_ e: Attribute) -> [EntityMember] { [.attribute(e)] }
    /// Wraps a relationship.
    public static func buildExpression(_ e: Relationship) -> [EntityMember] { [.relationship(e)] }
    /// Wraps a unique constraint.
    public static func buildExpression(_ e: UniqueConstraint) -> [EntityMember] { [.unique(e)] }
    /// Wraps an index.
    public static func buildExpression(_ e: Index) -> [EntityMember] { [.index(e)] }
    /// Joins the lines.
    public static func buildBlock(_ parts: [EntityMember]...) -> [EntityMember] { parts.flatMap { $0 } }
    /// Supports `if` without `else`.
    public static func buildOptional(_ part: [EntityMember]?) -> [EntityMember] { part ?? [] }
    /// Supports `if`/`else`.
    public static func buildEither(first: [EntityMember]) -> [EntityMember] { first }
    /// Supports `if`/`else`.
    public static func buildEither(second: [EntityMember]) -> [EntityMember] { second }
    /// Supports `for` loops.
    public static func buildArray(_ parts: [[EntityMember]]) -> [EntityMember] { parts.flatMap { $0 } }
}

/// Collects entities into a schema.
@resultBuilder
public enum SchemaBuilder {
    /// Wraps one entity.
    public static func buildExpression(_ e: Entity) -> [Entity] { [e] }
    /// Joins the entities.
    public static func buildBlock(_ parts: [Entity]...) -> [Entity] { parts.flatMap { $0 } }
    /// Supports `for` loops.
    public static func buildArray(_ parts: [[Entity]]) -> [Entity] { parts.flatMap { $0 } }
    /// Supports `if` without `else`.
    public static func buildOptional(_ part: [Entity]?) -> [Entity] { part ?? [] }
}
