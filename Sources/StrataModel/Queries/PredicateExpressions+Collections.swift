import Foundation

// Membership, to-many tests, string search, ranges, and the nodes that are only translated when
// their operands are known values (arithmetic, subscripts).

extension PredicateExpressions.SequenceContains: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let s = try t.term(sequence), e = try t.term(element)
        if let value = try t.folded(self, s, e) { return value }
        switch (s, e) {
        case (.constant(let values), .property(let reference)):
            guard let list = PredicateConstants.elements(values) else { throw t.unsupported("contains on \(s.summary)") }
            return .condition(try t.membership(reference, in: list))
        case (.property(let reference), .constant(let value)):
            guard case .toMany = reference.end, let id = PredicateConstants.identifier(value), let id else {
                throw t.unsupported("contains on \(reference.summary), which is not a to-many relationship (a Codable collection is stored as a document)")
            }
            return .condition(.contains(try t.path(reference), id))
        default:
            throw t.unsupported("contains with \(s.summary) and \(e.summary)")
        }
    }
}

extension PredicateTranslator {
    /// `sequence.contains(where:)` (`all`: `allSatisfy`) with the element bound to `variable`.
    func sequenceTest<Test: PredicateExpression>(_ sequence: PredicateTerm, _ variable: PredicateExpressions.VariableID, _ test: Test, all: Bool) throws -> PredicateTerm {
        switch sequence {
        case .constant(let values):
            // A captured collection: one condition per element.
            guard let list = PredicateConstants.elements(values) else { throw unsupported("a test over \(sequence.summary)") }
            let parts = try list.map { element -> FetchPredicate in
                bind(variable, to: .constant(element))
                return try condition(term(test))
            }
            return .condition(all ? .and(parts) : .or(parts))
        case .property(let reference):
            guard case .toMany(let destination) = reference.end else {
                throw unsupported("a test over the elements of \(reference.summary), which is not a to-many relationship")
            }
            let inner = try nested { () throws -> FetchPredicate in
                bind(variable, to: .property(PropertyReference(scope: scope, components: [], end: .model(destination))))
                return try condition(term(test))
            }
            return .condition(try toManyTest(reference, all: all, inner))
        default:
            throw unsupported("a test over the elements of \(sequence.summary)")
        }
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        try t.sequenceTest(t.term(sequence), variable.key, test, all: false)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        try t.sequenceTest(t.term(sequence), variable.key, test, all: true)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let b = try t.term(base), p = try t.term(prefix)
        return try t.folded(self, b, p) ?? .condition(t.textSearch(b, .hasPrefix, p, caseInsensitive: false))
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let b = try t.term(base), o = try t.term(other)
        return try t.folded(self, b, o) ?? .condition(t.textSearch(b, .contains, o, caseInsensitive: false))
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let r = try t.term(range), e = try t.term(element)
        if let value = try t.folded(self, r, e) { return value }
        guard case .constant(let known) = r, let bounds = PredicateConstants.bounds(known), case .property(let reference) = e else {
            throw t.unsupported("a range test of \(e.summary) in \(r.summary) (the range's bounds must be values)")
        }
        return .condition(try t.rangeMembership(reference, bounds))
    }
}

extension PredicateExpressions.Range: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(lower), t.term(upper)) }
}

extension PredicateExpressions.ClosedRange: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(lower), t.term(upper)) }
}

extension PredicateExpressions.Arithmetic: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(lhs), t.term(rhs)) }
}

extension PredicateExpressions.IntDivision: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(lhs), t.term(rhs)) }
}

extension PredicateExpressions.IntRemainder: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(lhs), t.term(rhs)) }
}

extension PredicateExpressions.FloatDivision: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(lhs), t.term(rhs)) }
}

extension PredicateExpressions.UnaryMinus: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(wrapped)) }
}

extension PredicateExpressions.CollectionIndexSubscript: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(wrapped), t.term(index)) }
}

extension PredicateExpressions.DictionaryKeySubscript: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm { try t.foldedOrRefused(self, t.term(wrapped), t.term(key)) }
}
