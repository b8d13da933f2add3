/// A validated set of entities: the shape of everything a store holds.
///
/// Built in code and checked at once: every relationship's inverse must exist and point back, names
/// must be unique, unique constraints may not include to-many relationships. A store records the
/// schema's `fingerprint` and refuses to open with a schema whose fingerprint differs
/// (`schemaMismatch`), rather than misreading data.
///
/// ```swift
/// let schema = try Schema {
///     Entity("Owner") {
///         Attribute("name", .string)
///         Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade)
///     }
///     Entity("Item") {
///         Attribute("name", .string, unique: true)
///         Relationship.toOne("owner", "Owner", inverse: "items")
///     }
/// }
/// ```
public struct Schema: Sendable, Hashable, Codable {
    /// The validated entities, in declaration order.
    public let entities: [EntitySchema]
    private let entityIndices: [String: Int]
    /// A stable hash of the declaration: equal schemas have equal fingerprints on every platform.
    public let fingerprint: String
    /// The version of the application's models this schema describes (SwiftData's
    /// `Schema.version`); `1.0.0` unless set. Not part of the fingerprint. Stores record it.
    public var version: Version = Version(1, 0, 0)
    /// Which registration of the model layer made this schema from model types, if one did: two
    /// type sets of one shape (the same fingerprint) are then told apart by the schema value
    /// itself, not by whichever was registered last. Not part of equality, hashing or coding.
    package var modelTypesRegistration: Int?

    /// Validates entities declared with the builder.
    public init(@SchemaBuilder _ entities: () -> [Entity]) throws {
        try self.init(entities: entities())
    }

    /// Validates an array of entity declarations, at a version.
    public init(entities declarations: [Entity], version: Version) throws {
        try self.init(entities: declarations)
        self.version = version
    }

    /// Validates an array of entity declarations.
    public init(entities declarations: [Entity]) throws {
        var indices: [String: Int] = [:]
        for (i, e) in declarations.enumerated() {
            guard !e.name.isEmpty else { throw StrataError(.invalidSchema, "An entity needs a name.") }
            guard indices.updateValue(i, forKey: e.name) == nil else {
                throw StrataError(.invalidSchema, "Entity '\(e.name)' is declared twice; rename one.", entity: e.name)
            }
        }
        self.entities = try declarations.enumerated().map { i, e in
            try EntitySchema(declaration: e, index: i, entityIndices: indices, all: declarations)
        }
        self.entityIndices = indices
        self.fingerprint = SchemaFingerprint.compute(declarations)
    }

    /// The entity with this name, or `nil`.
    public func entity(named name: String) -> EntitySchema? {
        if entities.count <= 8 {
            // Comparing a few short names beats hashing one; lengths first, since comparing two
            // different strings of different lengths otherwise takes Unicode's slow path.
            let length = name.utf8.count
            for i in entities.indices where entities[i].name.utf8.count == length && entities[i].name == name { return entities[i] }
            return nil
        }
        return entityIndices[name].map { entities[$0] }
    }

    /// The entity with this name, or an `unknownEntity` error that says which names exist.
    public func requireEntity(_ name: String) throws -> EntitySchema {
        guard let e = entity(named: name) else { throw Self.unknownEntity(name, among: entities) }
        return e
    }

    /// The error for an entity name none of `entities` has, listing the names that exist.
    static func unknownEntity(_ name: String, among entities: [EntitySchema]) -> StrataError {
        StrataError(.unknownEntity, "The schema has no entity '\(name)'; known: \(entities.map(\.name).joined(separator: ", ")).", entity: name)
    }

    /// Equal when the declarations are equal.
    public static func == (lhs: Schema, rhs: Schema) -> Bool { lhs.fingerprint == rhs.fingerprint }
    /// Hashes the fingerprint.
    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    /// Encodes the entity declarations.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(entities.map(\.declaration))
    }

    /// Decodes and re-validates entity declarations.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        try self.init(entities: try c.decode([Entity].self))
    }
}
