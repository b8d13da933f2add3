/// A validated entity: its declaration plus everything resolved once so hot paths index arrays.
///
/// Snapshots hold attribute values in `attributes` order and relationship values in `relationships`
/// order; backends and the engine address properties by those positions, never by string lookups.
public final class EntitySchema: Sendable {
    /// The declaration this was built from.
    public let declaration: Entity
    /// The entity's position in `Schema.entities`.
    public let index: Int
    /// The entity name.
    public let name: String
    /// Attributes in snapshot order.
    public let attributes: [Attribute]
    /// Relationships in snapshot order.
    public let relationships: [Relationship]
    /// For each attribute, its type (a flat copy for hot loops).
    public let attributeTypes: [AttributeType]
    /// For each attribute, whether it may be nil.
    public let attributeIsOptional: [Bool]
    /// For each relationship, whether it is to-many.
    public let relationshipIsToMany: [Bool]
    /// For each relationship, the index of its destination entity in the schema.
    public let destinationIndices: [Int]
    /// For each relationship, the name of its destination entity (what identifiers carry).
    public let destinationNames: [String]
    /// For each relationship, the index of its inverse among the destination's relationships.
    public let inverseIndices: [Int]
    /// Unique constraints (shorthand and explicit, deduplicated), resolved to property references.
    public let uniqueConstraints: [[PropertyReference]]
    /// Indexes (shorthand and explicit), resolved to property references.
    public let indexes: [[PropertyReference]]

    private let propertiesByName: [String: PropertyReference]

    init(declaration: Entity, index: Int, entityIndices: [String: Int], all: [Entity]) throws {
        self.declaration = declaration
        self.index = index
        self.name = declaration.name
        self.attributes = declaration.attributes
        self.relationships = declaration.relationships
        self.attributeTypes = declaration.attributes.map(\.type)
        self.attributeIsOptional = declaration.attributes.map(\.isOptional)
        self.relationshipIsToMany = declaration.relationships.map(\.isToMany)
        var byName: [String: PropertyReference] = [:]
        let named = declaration.attributes.indices.map { (declaration.attributes[$0].name, PropertyReference.attribute($0)) }
            + declaration.relationships.indices.map { (declaration.relationships[$0].name, PropertyReference.relationship($0)) }
        for (name, property) in named {
            guard byName.updateValue(property, forKey: name) == nil else {
                throw StrataError(.invalidSchema, "Property '\(name)' is declared twice; rename one.", entity: declaration.name, properties: [name])
            }
        }
        var destinations: [Int] = []
        var inverses: [Int] = []
        for (i, r) in declaration.relationships.enumerated() {
            guard let d = entityIndices[r.destination] else {
                throw StrataError(.invalidSchema, "Relationship '\(r.name)' points to entity '\(r.destination)', which the schema does not declare.", entity: declaration.name, properties: [r.name])
            }
            guard let inv = all[d].relationships.firstIndex(where: { $0.name == r.inverse }) else {
                throw StrataError(.invalidSchema, "Relationship '\(r.name)' names inverse '\(r.inverse)', which '\(r.destination)' does not declare.", entity: declaration.name, properties: [r.name])
            }
            let inverse = all[d].relationships[inv]
            guard inverse.inverse == r.name, inverse.destination == declaration.name else {
                throw StrataError(.invalidSchema, "Relationship '\(r.name)' and its inverse '\(r.destination).\(r.inverse)' do not point back at each other.", entity: declaration.name, properties: [r.name])
            }
            if let lo = r.minCount, let hi = r.maxCount, lo > hi {
                throw StrataError(.invalidSchema, "Relationship '\(r.name)' has minCount \(lo) above maxCount \(hi).", entity: declaration.name, properties: [r.name])
            }
            if !r.isToMany && (r.isOrdered || r.minCount != nil || r.maxCount != nil) {
                throw StrataError(.invalidSchema, "To-one relationship '\(r.name)' cannot be ordered or have count bounds.", entity: declaration.name, properties: [r.name])
            }
            destinations.append(d)
            inverses.append(inv)
        }
        self.propertiesByName = byName
        self.destinationIndices = destinations
        self.destinationNames = declaration.relationships.map(\.destination)
        self.inverseIndices = inverses

        func resolve(_ names: [String], what: String) throws -> [PropertyReference] {
            guard !names.isEmpty else {
                throw StrataError(.invalidSchema, "An empty \(what) is not allowed.", entity: declaration.name)
            }
            return try names.map { name in
                guard let ref = byName[name] else {
                    throw StrataError(.invalidSchema, "The \(what) names '\(name)', which the entity does not declare.", entity: declaration.name, properties: names)
                }
                if case .relationship(let r) = ref, declaration.relationships[r].isToMany {
                    throw StrataError(.invalidSchema, "The \(what) includes to-many relationship '\(name)'; only attributes and to-one relationships can take part.", entity: declaration.name, properties: names)
                }
                return ref
            }
        }
        var uniques: [[PropertyReference]] = []
        for a in declaration.attributes where a.isUnique { uniques.append([byName[a.name]!]) }
        for u in declaration.uniqueConstraints {
            let refs = try resolve(u.properties, what: "unique constraint")
            if !uniques.contains(refs) { uniques.append(refs) }
        }
        var indexes: [[PropertyReference]] = []
        for a in declaration.attributes where a.isIndexed { indexes.append([byName[a.name]!]) }
        for i in declaration.indexes {
            let refs = try resolve(i.properties, what: "index")
            if !indexes.contains(refs) { indexes.append(refs) }
        }
        self.uniqueConstraints = uniques
        self.indexes = indexes
        for a in declaration.attributes {
            if let d = a.defaultValue, !d.isNull, d.type != a.type {
                throw StrataError(.invalidSchema, "Attribute '\(a.name)' of type \(a.type.rawValue) has a default of another type (\(d)).", entity: declaration.name, properties: [a.name])
            }
        }
    }

    /// The property with this name, or `nil`.
    public func property(named name: String) -> PropertyReference? { propertiesByName[name] }

    /// The index of the attribute with this name, or `nil`.
    public func attributeIndex(_ name: String) -> Int? {
        if case .attribute(let i)? = propertiesByName[name] { return i }
        return nil
    }

    /// The index of the relationship with this name, or `nil`.
    public func relationshipIndex(_ name: String) -> Int? {
        if case .relationship(let i)? = propertiesByName[name] { return i }
        return nil
    }

    /// The name of a resolved property.
    public func name(of property: PropertyReference) -> String {
        switch property {
        case .attribute(let i): attributes[i].name
        case .relationship(let i): relationships[i].name
        }
    }
}

/// A property of an entity by position: the `n`th attribute or the `n`th relationship.
public enum PropertyReference: Sendable, Hashable {
    /// An attribute, by index in `EntitySchema.attributes`.
    case attribute(Int)
    /// A relationship, by index in `EntitySchema.relationships`.
    case relationship(Int)
}
