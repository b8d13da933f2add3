/// Declares one attribute of an entity: a name, a type, whether it may be `nil`, and a default.
///
/// ```swift
/// Attribute("name", .string, unique: true)
/// Attribute("note", .string, optional: true)
/// Attribute("count", .int, default: 0, indexed: true)
/// ```
public struct Attribute: Sendable, Hashable, Codable {
    /// The property name, unique among the entity's attributes and relationships.
    public var name: String
    /// The stored type.
    public var type: AttributeType
    /// Whether `nil` is allowed.
    public var isOptional: Bool
    /// The value a new snapshot starts with (`nil` means `.null` for optionals, required otherwise).
    public var defaultValue: Value?
    /// Shorthand for a single-attribute unique constraint.
    public var isUnique: Bool
    /// Shorthand for a single-attribute index.
    public var isIndexed: Bool
    /// The name this attribute had in the previous version of the schema, when it was renamed
    /// (SwiftData's `@Attribute(originalName:)`): lightweight migration carries the values over.
    /// Not part of the fingerprint.
    public var originalName: String?
    /// A version mark of this attribute (SwiftData's `@Attribute(hashModifier:)`, Core Data's
    /// `versionHashModifier`): changing it, and nothing else, makes the schema another version, so a
    /// store written with the old mark is migrated although the attribute's type did not change.
    /// Part of the fingerprint when set; `nil` leaves the fingerprint as it was before marks existed.
    public var hashModifier: String?

    /// Declares an attribute.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value? = nil,
        unique: Bool = false, indexed: Bool = false, originalName: String? = nil, hashModifier: String? = nil
    ) {
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.name = name
        self.type = type
        self.isOptional = optional
        // An integer literal default for a double attribute (`default: 0`) means that number.
        if type == .double, case .int(let n)? = defaultValue {
            self.defaultValue = .double(Double(n))
        } else {
            self.defaultValue = defaultValue
        }
        self.isUnique = unique
        self.isIndexed = indexed
    }
}
