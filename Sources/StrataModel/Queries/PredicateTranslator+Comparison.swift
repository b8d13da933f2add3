import Foundation

/// Comparisons, membership and string search: where a property meets a value.
extension PredicateTranslator {
    /// `lhs op rhs` for any two terms.
    func compare(_ lhs: PredicateTerm, _ op: ComparisonOperator, _ rhs: PredicateTerm) throws -> FetchPredicate {
        switch (lhs, rhs) {
        case (.conditional(let test, let a, let b), _):
            return .or([.and([test, try compare(a, op, rhs)]), .and([.not(test), try compare(b, op, rhs)])])
        case (_, .conditional(let test, let a, let b)):
            return .or([.and([test, try compare(lhs, op, a)]), .and([.not(test), try compare(lhs, op, b)])])
        case (.constant(let a), .constant(let b)):
            // Both known (a branch of a conditional or of ??): decided now, with the store's semantics.
            // An order is Swift's own (a Comparable enum's `<`), not its stored form's.
            if op.isOrdering, let answer = SwiftOrder.holds(a, op, b) { return .constant(answer) }
            if let x = PredicateConstants.storedValue(a), let y = PredicateConstants.storedValue(b) { return .constant(Value.satisfies(x, op, y)) }
            if let x = PredicateConstants.identifier(a), let y = PredicateConstants.identifier(b) { return try equality(op) { .constant(x == y) } }
            throw unsupported("a comparison between \(lhs.summary) and \(rhs.summary)")
        case (.property(let reference), .constant(let value)):
            return try compare(reference, op, value)
        case (.constant(let value), .property(let reference)):
            return try compare(reference, op.mirrored, value)
        case (.property(let a), .property(let b)):
            guard case .attribute = a.end, case .attribute = b.end else {
                throw unsupported("a comparison between \(a.summary) and \(b.summary) (compare a relationship with a model value instead)")
            }
            if op.isOrdering {
                for reference in [a, b] {
                    guard let type = reference.valueType else { continue }
                    switch SwiftOrder.plan(for: type) {
                    case .stored: continue
                    case .cases: throw unsupported("an ordering comparison (\(op.rawValue)) of \(reference.summary) with another property: the stored raw values of \(type) do not order as \(type) does, and Strata follows Swift's order only against a value")
                    case .refused(let why): throw unsupported("an ordering comparison (\(op.rawValue)) of \(reference.summary): \(why)")
                    }
                }
            }
            return .compareProperties(try path(a), op, try path(b))
        case (.count(let reference), .constant(let value)):
            return try countComparison(reference, op, value)
        case (.constant(let value), .count(let reference)):
            return try countComparison(reference, op.mirrored, value)
        case (.condition(let p), .constant), (.constant, .condition(let p)):
            let other: PredicateTerm
            if case .constant = lhs { other = lhs } else { other = rhs }
            return try equality(op) { try other.isTrue ? p : .not(p) }
        case (.condition(let a), .condition(let b)):
            return try equality(op) { .or([.and([a, b]), .and([.not(a), .not(b)])]) }
        case (.optionalCondition(let p, let isNil), .constant(let value)), (.constant(let value), .optionalCondition(let p, let isNil)):
            return try equality(op) {
                if PredicateConstants.isNil(value) { return isNil }
                guard let b = value as? Bool else { throw unsupported("a comparison of an optional condition with \(value)") }
                return .and([.not(isNil), b ? p : .not(p)])
            }
        default:
            throw unsupported("a comparison between \(lhs.summary) and \(rhs.summary)")
        }
    }

    /// `==` as built by `body`, `!=` as its negation; ordering operators are refused.
    private func equality(_ op: ComparisonOperator, _ body: () throws -> FetchPredicate) throws -> FetchPredicate {
        switch op {
        case .equal: return try body()
        case .notEqual: return .not(try body())
        default: throw unsupported("an ordering comparison (\(op.rawValue)) of Boolean conditions")
        }
    }

    /// `reference op value` for a property and a known value.
    func compare(_ reference: PropertyReference, _ op: ComparisonOperator, _ value: Any) throws -> FetchPredicate {
        switch reference.end {
        case .attribute:
            guard let stored = PredicateConstants.storedValue(value) else {
                if op.isOrdering, case .refused(let why) = SwiftOrder.plan(for: type(of: value)) {
                    throw unsupported("an ordering comparison (\(op.rawValue)) of \(reference.summary): \(why)")
                }
                throw unsupported("a comparison of \(reference.summary) with a value of type \(type(of: value)), which is stored as a document (only stored types, raw-value enums and models can be compared)")
            }
            if stored.isNull {
                switch op {
                case .equal: return try isNil(reference)
                case .notEqual: return .not(try isNil(reference))
                default: return .constant(false)
                }
            }
            if op.isOrdering {
                switch SwiftOrder.plan(for: type(of: value)) {
                case .stored: break
                case .cases(let all):
                    // Swift's order, not the raw values': `priority < high` is `priority in [low, medium]`.
                    return .isIn(try path(reference), all.filter { SwiftOrder.holds($0, op, value) == true }.compactMap(PredicateConstants.storedValue))
                case .refused(let why):
                    throw unsupported("an ordering comparison (\(op.rawValue)) of \(reference.summary): \(why)")
                }
            }
            return .compare(try path(reference), op, stored)
        case .model, .identifier:
            guard let id = PredicateConstants.identifier(value) else {
                throw unsupported("a comparison of \(reference.summary) with a value of type \(type(of: value))")
            }
            if op.isOrdering {
                throw unsupported("an ordering comparison (\(op.rawValue)) of identifiers (\(reference.components.isEmpty ? "persistentModelID" : reference.summary)): stores keep no queryable order of identifiers; compare a stored attribute, or the identifiers after the fetch")
            }
            return try equality(op) { try identifies(reference, id) }
        case .toMany:
            throw unsupported("a comparison of the to-many relationship \(reference.summary) with a value (use contains, isEmpty or count)")
        }
    }

    /// Whether the model (or identifier) at `reference` is the record `id` (`nil`: no record).
    private func identifies(_ reference: PropertyReference, _ id: PersistentIdentifier?) throws -> FetchPredicate {
        if reference.components.isEmpty {
            guard let id else { return .constant(false) }
            return .identifierIn([id])
        }
        return .targetIs(try path(reference), id)
    }

    /// `values.contains(reference)`.
    func membership(_ reference: PropertyReference, in values: [Any]) throws -> FetchPredicate {
        switch reference.end {
        case .attribute:
            let stored = try values.map { value -> Value in
                guard let v = PredicateConstants.storedValue(value) else {
                    throw unsupported("membership of \(reference.summary) in a list of \(type(of: value))")
                }
                return v
            }
            return .isIn(try path(reference), stored)
        case .model, .identifier:
            let ids = try values.map { value -> PersistentIdentifier? in
                guard let id = PredicateConstants.identifier(value) else {
                    throw unsupported("membership of \(reference.summary) in a list of \(type(of: value))")
                }
                return id
            }
            if reference.components.isEmpty { return .identifierIn(ids.compactMap { $0 }) }
            return .or(try ids.map { try identifies(reference, $0) })
        case .toMany:
            throw unsupported("membership of the to-many relationship \(reference.summary) in a list")
        }
    }

    /// `lower ...(<) upper` contains `reference`.
    func rangeMembership(_ reference: PropertyReference, _ bounds: (lower: Any, upper: Any, closed: Bool)) throws -> FetchPredicate {
        .and([try compare(reference, .greaterOrEqual, bounds.lower), try compare(reference, bounds.closed ? .lessOrEqual : .less, bounds.upper)])
    }

    /// String search on a stored string.
    func textSearch(_ base: PredicateTerm, _ op: StringOperator, _ pattern: PredicateTerm, caseInsensitive: Bool) throws -> FetchPredicate {
        guard case .property(let reference) = base, case .attribute = reference.end else {
            throw unsupported("a string search (\(op.rawValue)) in \(base.summary); the searched string must be a stored property")
        }
        guard case .constant(let value) = pattern, let text = PredicateConstants.string(value) else {
            throw unsupported("a string search (\(op.rawValue)) for \(pattern.summary); the searched-for text must be a value, not a property")
        }
        return .text(try path(reference), op, text, caseInsensitive: caseInsensitive)
    }
}

extension ComparisonOperator {
    /// The operator with its operands swapped: `5 < x` is `x > 5`.
    var mirrored: ComparisonOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

extension PredicateTerm {
    /// The Boolean a constant term holds.
    var isTrue: Bool {
        get throws {
            guard case .constant(let value) = self, let b = value as? Bool else {
                throw StrataError(.unsupportedPredicate, "Expected a Boolean value, found \(summary).")
            }
            return b
        }
    }
}
