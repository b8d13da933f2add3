/// The value of one relationship in a snapshot: its targets, as identifiers.
public enum RelationshipValue: Sendable, Hashable, Codable {
    /// A to-one relationship's target, or `nil` when empty.
    case toOne(PersistentIdentifier?)
    /// A to-many relationship's targets, in order for ordered relationships.
    case toMany([PersistentIdentifier])

    /// The targets as a list (zero or one element for to-one).
    public var targets: [PersistentIdentifier] {
        switch self {
        case .toOne(let id): id.map { [$0] } ?? []
        case .toMany(let ids): ids
        }
    }

    /// The to-one target, if this is a to-one value.
    public var target: PersistentIdentifier? {
        if case .toOne(let id) = self { return id }
        return nil
    }

    /// Rewrites every identifier found in `map`, leaving the others.
    public func remapped(_ map: IdentifierRemapping) -> RelationshipValue {
        guard !map.isEmpty else { return self }
        switch self {
        case .toOne(let id): return .toOne(id.map { map[$0] ?? $0 })
        case .toMany(let ids): return .toMany(ids.map { map[$0] ?? $0 })
        }
    }

    /// The empty value for a relationship of this shape.
    public static func empty(for relationship: Relationship) -> RelationshipValue {
        relationship.isToMany ? .toMany([]) : .toOne(nil)
    }
}
