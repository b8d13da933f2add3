import Foundation

/// What one sub-expression of a `#Predicate` stands for once translated: a condition the store can
/// test, a value known now, or a property of the object (or of a related one) the store reads.
///
/// Translation works bottom-up: each `PredicateExpressions` node turns its children into terms and
/// combines them; a node whose children are all known values is evaluated on the spot (so
/// `$0.priority > limit + 1` compares with one number).
indirect enum PredicateTerm {
    /// A Boolean the store evaluates.
    case condition(FetchPredicate)
    /// An optional Boolean from an optional chain (`$0.folder?.name.contains("x")`): `nil` when
    /// `isNil` holds, else `value`.
    case optionalCondition(FetchPredicate, isNil: FetchPredicate)
    /// A value known at translation time: a literal, a captured variable, a folded sub-expression.
    case constant(Any)
    /// A property, or the object itself, reached from a variable.
    case property(PropertyReference)
    /// The number of targets of a to-many relationship.
    case count(PropertyReference)
    /// `test ? whenTrue : whenFalse` with non-Boolean branches; comparisons distribute over it.
    case conditional(FetchPredicate, PredicateTerm, PredicateTerm)

    /// A short description for error messages.
    var summary: String {
        switch self {
        case .condition: "a condition"
        case .optionalCondition: "an optional condition"
        case .constant(let value): "the value \(value)"
        case .property(let reference): reference.summary
        case .count(let reference): "the count of '\(reference.path)'"
        case .conditional: "a conditional (?:)"
        }
    }
}

/// A path from one of the predicate's variables: `$0` itself (no components), an attribute, a
/// to-one chain, a to-many relationship, or an identifier.
struct PropertyReference {
    /// What the path ends on.
    enum End {
        /// A stored attribute.
        case attribute
        /// A model object: the variable itself or the target of a to-one relationship.
        case model(any PersistentModel.Type)
        /// A to-many relationship.
        case toMany(any PersistentModel.Type)
        /// `persistentModelID` (or `id`) of the model at the path.
        case identifier
    }

    /// Which variable scope the path starts in: 0 for the predicate's object, one more inside each
    /// to-many test (`$0.tags.contains { … }`).
    var scope: Int
    /// The property names along the path.
    var components: [String]
    /// What the path ends on.
    var end: End
    /// The Swift type of the value at the path, when known (for ordering comparisons).
    var valueType: Any.Type? = nil

    /// The core's path.
    var path: PropertyPath { PropertyPath(components) }

    /// The path extended by one property.
    func appending(_ name: String, _ end: End, valueType: Any.Type? = nil) -> PropertyReference {
        PropertyReference(scope: scope, components: components + [name], end: end, valueType: valueType)
    }

    var summary: String { components.isEmpty ? "the object itself" : "'\(path)'" }
}
