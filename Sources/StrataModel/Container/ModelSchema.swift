/// The schema of a set of model types: the core `Schema` plus which type serves which entity.
///
/// Built from the types given and every type their relationships reach. Each relationship is
/// paired with its inverse (named by `inverse:` on either side, or inferred when each type has
/// exactly one relationship to the other); a relationship with no inverse (SwiftData's one-way
/// relationship) gets a hidden to-many inverse on the destination, named
/// `<Entity>_<property>_inverse`, which the store maintains and no model property exposes.
struct ModelSchema: Sendable {
    let schema: Schema
    /// Entity name → the model type's description.
    let infos: [String: ModelTypeInfo]

    init(_ types: [any PersistentModel.Type]) throws {
        var ordered: [ModelTypeInfo] = []
        var seen = Set<ObjectIdentifier>()
        var pending = types
        while !pending.isEmpty {
            let type = pending.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let info = ModelTypeInfo.of(type)
            ordered.append(info)
            pending += info.properties.compactMap { $0.relationship?.destination }
        }
        var infos: [String: ModelTypeInfo] = [:]
        for info in ordered {
            guard infos.updateValue(info, forKey: info.entityName) == nil else {
                throw StrataError(.invalidSchema, "Two model types are named '\(info.entityName)'; entity names are class names and must be unique.", entity: info.entityName)
            }
        }
        var entities = ordered.map { info -> Entity in
            var members: [EntityMember] = []
            for p in info.properties {
                guard case .attribute(var a) = p.kind else { continue }
                a.originalName = p.originalName  // `@Attribute(originalName:)`: a rename, for migrations
                a.hashModifier = p.hashModifier  // `@Attribute(hashModifier:)`: a version mark, in the fingerprint
                members.append(.attribute(a))
            }
            for c in info.constraints.unique { members.append(.unique(UniqueConstraint(properties: c))) }
            for i in info.constraints.indexes { members.append(.index(Index(properties: i))) }
            return Entity(info.entityName, members: members)
        }
        var hidden: [(entity: Int, relationship: Relationship)] = []
        for (e, info) in ordered.enumerated() {
            for ordinal in info.relationshipOrdinals {
                let p = info.properties[ordinal], r = p.relationship!
                let destination = ModelTypeInfo.of(r.destination)
                let inverseName: String
                if let partner = try info.partner(of: ordinal) {
                    guard let back = try partner.info.partner(of: partner.ordinal), back.info === info, back.ordinal == ordinal else {
                        throw StrataError(.invalidSchema, "\(info.entityName).\(p.name) and \(destination.entityName).\(partner.info.properties[partner.ordinal].name) do not pair with each other; name the inverse on one side.", entity: info.entityName, properties: [p.name])
                    }
                    inverseName = partner.info.properties[partner.ordinal].name
                } else {
                    inverseName = "\(info.entityName)_\(p.name)_inverse"
                    let d = ordered.firstIndex { $0 === destination }!
                    hidden.append((d, .toMany(inverseName, info.entityName, inverse: p.name)))
                }
                let relationship: Relationship = r.isToMany
                    ? .toMany(p.name, destination.entityName, inverse: inverseName, ordered: true, deleteRule: r.deleteRule, minCount: r.minimumCount, maxCount: r.maximumCount, originalName: p.originalName, hashModifier: p.hashModifier)
                    : .toOne(p.name, destination.entityName, inverse: inverseName, optional: r.isOptional, deleteRule: r.deleteRule, originalName: p.originalName, hashModifier: p.hashModifier)
                entities[e].relationships.append(relationship)
                // `@Relationship(.unique)`: the core refuses it on a to-many, naming the property.
                if r.isUnique { entities[e].uniqueConstraints.append(UniqueConstraint(properties: [p.name])) }
            }
        }
        for h in hidden { entities[h.entity].relationships.append(h.relationship) }
        self.schema = try Schema(entities: entities)
        self.infos = infos
    }
}

extension Schema {
    /// The schema of model types and every type their relationships reach.
    ///
    /// - Throws: `invalidSchema` for duplicate entity names, inverses that do not pair, or
    ///   anything the core rejects (a constraint naming an unknown property…).
    public init(models types: [any PersistentModel.Type]) throws {
        self = try ModelSchema(types).schema
    }
}
