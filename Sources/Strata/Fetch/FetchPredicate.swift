/// A filter over one entity's records, as a tree a backend can evaluate or translate.
///
/// The tree carries what Foundation's `#Predicate` commonly expresses: comparisons of a property with
/// a constant or another property, optional checks, membership in a list, string search, boolean
/// logic, and relationship tests. Property paths may go through to-one relationships
/// (`["owner", "name"]`). The core's `PredicateEvaluator` evaluates any tree; a backend may push a
/// tree down to its engine (SQL) as long as the results are the same.
///
/// Semantics every backend follows (see `docs/store-contract.md`): `nil` equals only `nil` and is
/// neither less nor greater than anything; NaN equals nothing; strings compare by UTF-8 bytes; a path
/// through an empty to-one yields `nil`. The to-many tests (`anyMatch`, `allMatch`, `count`) nest a
/// predicate over another entity; a path never crosses a to-many except through them.
public enum FetchPredicate: Sendable, Hashable {
    /// Always true or always false.
    case constant(Bool)
    /// `path op value`.
    case compare(PropertyPath, ComparisonOperator, Value)
    /// `lhs op rhs` for two properties of the same record.
    case compareProperties(PropertyPath, ComparisonOperator, PropertyPath)
    /// `path == nil` (for attributes and to-one relationships).
    case isNil(PropertyPath)
    /// `values.contains(path)`.
    case isIn(PropertyPath, [Value])
    /// String search: `path.contains(text)`, `hasPrefix`, `hasSuffix`, optionally case-insensitive
    /// (both sides lowercased with Unicode rules, then compared by bytes). `nil` never matches.
    case text(PropertyPath, StringOperator, String, caseInsensitive: Bool)
    /// The to-one relationship at `path` points at this record (`nil`: is empty).
    case targetIs(PropertyPath, PersistentIdentifier?)
    /// The to-many relationship at `path` holds this record.
    case contains(PropertyPath, PersistentIdentifier)
    /// The record's own identifier is one of these.
    case identifierIn([PersistentIdentifier])
    /// All hold (an empty list holds).
    case and([FetchPredicate])
    /// One holds (an empty list does not).
    case or([FetchPredicate])
    /// Does not hold. (Only the recursive cases are boxed, so building any other predicate
    /// allocates nothing beyond its own arrays.)
    indirect case not(FetchPredicate)
    /// Some target of the to-many relationship at `path` satisfies the nested predicate, which is
    /// evaluated over the target entity's records: `$0.tags.contains { $0.name == "urgent" }`;
    /// `anyMatch(path, .constant(true))` is `!$0.tags.isEmpty`. False for an empty to-many.
    indirect case anyMatch(PropertyPath, FetchPredicate)
    /// Every target of the to-many relationship at `path` satisfies the nested predicate
    /// (`allSatisfy`); true for an empty to-many.
    indirect case allMatch(PropertyPath, FetchPredicate)
    /// The number of targets of the to-many relationship at `path`, compared with a number:
    /// `$0.notes.count > 5`.
    ///
    /// For all three to-many tests the path may follow to-one relationships first
    /// (`"folder.notes"`); through an empty or dangling to-one the to-many is `nil`, as Swift's
    /// optional chaining makes it: `anyMatch` and `allMatch` do not hold, and the count compares as
    /// `nil` does (only `!=` holds).
    case count(PropertyPath, ComparisonOperator, Int)

    /// `a && b`.
    public static func && (a: FetchPredicate, b: FetchPredicate) -> FetchPredicate { .and([a, b]) }
    /// `a || b`.
    public static func || (a: FetchPredicate, b: FetchPredicate) -> FetchPredicate { .or([a, b]) }
    /// `!a`.
    public static prefix func ! (a: FetchPredicate) -> FetchPredicate { .not(a) }
}

/// A comparison between two values.
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    /// `==`
    case equal = "=="
    /// `!=`
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="
}

/// A string search operator.
public enum StringOperator: String, Sendable, Hashable, Codable, CaseIterable {
    /// The text occurs anywhere.
    case contains
    /// The text starts the value.
    case hasPrefix
    /// The text ends the value.
    case hasSuffix
}

/// A property, or a chain of to-one relationships ending in a property: `["owner", "name"]`.
public struct PropertyPath: Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The names along the path.
    public var components: [String]
    /// A path from its names.
    public init(_ components: [String]) { self.components = components }
    /// A path from dotted text: `"owner.name"`.
    public init(stringLiteral value: String) { self.components = value.split(separator: ".").map(String.init) }
    /// The dotted form.
    public var description: String { components.joined(separator: ".") }
}
