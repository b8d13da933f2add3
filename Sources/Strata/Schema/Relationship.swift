/// What happens to a relationship's targets when its source record is deleted.
///
/// Applied by the store against everything it holds, in the same atomic save as the delete.
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Delete the targets too, recursively; cycles end.
    case cascade
    /// Remove the deleted record from each target's inverse relationship.
    case nullify
    /// Refuse the whole save while any target would remain.
    case deny
    /// Leave the targets' inverse pointing at the deleted record (a dangling reference, by request).
    case noAction
}

/// Declares one relationship of an entity and its inverse on the destination entity.
///
/// Every relationship names its inverse; the store keeps both sides in agreement. A to-many whose
/// inverse is also to-many is a many-to-many.
///
/// ```swift
/// Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade)
/// Relationship.toOne("owner", "Owner", inverse: "items", optional: false)
/// ```
public struct Relationship: Sendable, Hashable, Codable {
    /// The property name, unique among the entity's attributes and relationships.
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// The name of the relationship on `destination` that points back.
    public var inverse: String
    /// Whether it holds many targets.
    public var isToMany: Bool
    /// For to-many: whether the order of targets is kept.
    public var isOrdered: Bool
    /// For to-one: whether it may be empty. To-many use `minCount` instead.
    public var isOptional: Bool
    /// What a delete of the source does to the targets.
    public var deleteRule: DeleteRule
    /// For to-many: the fewest targets allowed, if bounded.
    public var minCount: Int?
    /// For to-many: the most targets allowed, if bounded.
    public var maxCount: Int?
    /// The name this relationship had in the previous version of the schema, when it was renamed
    /// (SwiftData's `@Relationship(originalName:)`). Not part of the fingerprint.
    public var originalName: String?
    /// A version mark of this relationship (SwiftData's `@Relationship(hashModifier:)`, Core Data's
    /// `versionHashModifier`): changing it, and nothing else, makes the schema another version.
    /// Part of the fingerprint when set; `nil` leaves the fingerprint as it was before marks existed.
    public var hashModifier: String? = nil

    /// Declares a to-one relationship.
    public static func toOne(
        _ name: String, _ destination: String, inverse: String, optional: Bool = true,
        deleteRule: DeleteRule = .nullify, originalName: String? = nil, hashModifier: String? = nil
    ) -> Relationship {
        Relationship(
            name: name, destination: destination, inverse: inverse, isToMany: false, isOrdered: false,
            isOptional: optional, deleteRule: deleteRule, minCount: nil, maxCount: nil, originalName: originalName,
            hashModifier: hashModifier)
    }

    /// Declares a to-many relationship, ordered or not, with optional count bounds.
    public static func toMany(
        _ name: String, _ destination: String, inverse: String, ordered: Bool = false,
        deleteRule: DeleteRule = .nullify, minCount: Int? = nil, maxCount: Int? = nil, originalName: String? = nil,
        hashModifier: String? = nil
    ) -> Relationship {
        Relationship(
            name: name, destination: destination, inverse: inverse, isToMany: true, isOrdered: ordered,
            isOptional: true, deleteRule: deleteRule, minCount: minCount, maxCount: maxCount, originalName: originalName,
            hashModifier: hashModifier)
    }
}

/// Declares a unique constraint over one or more attributes or to-one relationships.
///
/// A save that would give two records equal values for all of them fails with
/// `uniqueConstraintViolation`. A `nil` in any of them never collides (SQL semantics).
public struct UniqueConstraint: Sendable, Hashable, Codable {
    /// The constrained property names, in order.
    public var properties: [String]
    /// Declares the constraint.
    public init(_ properties: String...) { self.properties = properties }
    /// Declares the constraint from an array.
    public init(properties: [String]) { self.properties = properties }
}

/// Declares an index over one or more attributes; a hint a backend may use to speed up fetches.
public struct Index: Sendable, Hashable, Codable {
    /// The indexed property names, in order.
    public var properties: [String]
    /// Declares the index.
    public init(_ properties: String...) { self.properties = properties }
    /// Declares the index from an array.
    public init(properties: [String]) { self.properties = properties }
}
