import Foundation

// Each supported node of Foundation's predicate tree translates itself: its children become terms
// (`PredicateTerm`), and the node combines them. A node whose children are all values known now is
// evaluated on the spot instead (`folded`), so arithmetic on captured values works while
// arithmetic on stored properties is refused by name.

extension PredicateTranslator {
    /// The node evaluated now if its children are known values, else the refusal naming it.
    func foldedOrRefused<E: PredicateExpression>(_ node: E, _ children: PredicateTerm...) throws -> PredicateTerm {
        for child in children { guard case .constant = child else { throw unsupported(Self.constructName(of: node)) } }
        return .constant(try node.evaluate(PredicateBindings()))
    }
}

extension PredicateExpressions.Variable: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.variable(key) }
}

extension PredicateExpressions.Value: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { .constant(value) }
}

extension PredicateExpressions.NilLiteral: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { .constant(Wrapped?.none as Any) }
}

extension PredicateExpressions.KeyPath: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let base = try t.term(root)
        if let value = try t.folded(self, base) { return value }
        return try t.keyPath(keyPath, on: base, rootType: Root.Output.self) {
            switch kind {
            case .collectionCount: .count
            case .collectionIsEmpty: .isEmpty
            default: nil
            }
        }
    }
}

extension PredicateExpressions.Equal: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let l = try t.term(lhs), r = try t.term(rhs)
        return try t.folded(self, l, r) ?? .condition(t.compare(l, .equal, r))
    }
}

extension PredicateExpressions.NotEqual: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let l = try t.term(lhs), r = try t.term(rhs)
        return try t.folded(self, l, r) ?? .condition(t.compare(l, .notEqual, r))
    }
}

extension PredicateExpressions.Comparison: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let l = try t.term(lhs), r = try t.term(rhs)
        if let value = try t.folded(self, l, r) { return value }
        let core: ComparisonOperator = switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        }
        return .condition(try t.compare(l, core, r))
    }
}

extension PredicateExpressions.Conjunction: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let l = try t.condition(t.term(lhs)), r = try t.condition(t.term(rhs))
        return .condition(.and(l.conjuncts + r.conjuncts))
    }
}

extension PredicateExpressions.Disjunction: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let l = try t.condition(t.term(lhs)), r = try t.condition(t.term(rhs))
        return .condition(.or(l.disjuncts + r.disjuncts))
    }
}

extension PredicateExpressions.Negation: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        .condition(.not(try t.condition(t.term(wrapped))))
    }
}

extension PredicateExpressions.Conditional: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let test = try t.condition(t.term(self.test))
        let a = try t.term(trueBranch), b = try t.term(falseBranch)
        if case .constant(let known) = test { return known ? a : b }
        if If.Output.self == Bool.self {
            return .condition(.or([.and([test, try t.condition(a)]), .and([.not(test), try t.condition(b)])]))
        }
        return .conditional(test, a, b)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let base = try t.term(wrapped)
        switch base {
        case .constant(let value):
            if PredicateConstants.isNil(value) { return .constant(Result?.none as Any) }
            t.bind(variable.key, to: base)
            return try t.term(transform)
        case .property(let reference):
            t.bind(variable.key, to: base)
            switch try t.term(transform) {
            case .property(let inner): return .property(inner)  // a path through an empty to-one reads nil
            case .count(let inner): return .count(inner)
            case .condition(let p): return .optionalCondition(p, isNil: try t.isNil(reference))
            case .optionalCondition(let p, let n): return .optionalCondition(p, isNil: .or([try t.isNil(reference), n]))
            case let other: throw t.unsupported("\(other.summary) inside an optional chain")
            }
        default:
            throw t.unsupported("an optional chain on \(base.summary)")
        }
    }
}

extension PredicateExpressions.NilCoalesce: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let l = try t.term(lhs), r = try t.term(rhs)
        if let value = try t.folded(self, l, r) { return value }
        switch l {
        case .property(let reference): return .conditional(try t.isNil(reference), r, l)
        case .optionalCondition(let p, let isNil): return .conditional(isNil, r, .condition(p))
        case .count(let reference) where reference.components.count > 1:
            // `($0.folder?.notes.count ?? 0)`: nil when the to-one before the to-many is empty.
            let owner = PropertyReference(scope: reference.scope, components: Array(reference.components.dropLast()), end: .attribute)
            return .conditional(try t.isNil(owner), r, l)
        default: throw t.unsupported("?? applied to \(l.summary)")
        }
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let inner = try t.term(self.inner)
        if let value = try t.folded(self, inner) { return value }
        switch inner {
        case .property: return inner  // a record whose value is nil does not match (Swift would stop)
        case .optionalCondition(let p, _): return .condition(p)
        default: throw t.unsupported("! applied to \(inner.summary)")
        }
    }
}

extension FetchPredicate {
    /// The operands of an `and` (itself otherwise), to keep translated trees flat.
    var conjuncts: [FetchPredicate] { if case .and(let parts) = self { parts } else { [self] } }
    /// The operands of an `or` (itself otherwise).
    var disjuncts: [FetchPredicate] { if case .or(let parts) = self { parts } else { [self] } }
}
