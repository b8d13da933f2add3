import Foundation

/// Tests on to-many relationships: `contains(where:)`, `allSatisfy`, `isEmpty`, `count`.
extension PredicateTranslator {
    /// `reference.count op value`.
    func countComparison(_ reference: PropertyReference, _ op: ComparisonOperator, _ value: Any) throws -> FetchPredicate {
        throw unsupported("the count of the to-many relationship \(reference.summary) (not yet supported by the core)")
    }

    /// `reference.isEmpty`.
    func toManyIsEmpty(_ reference: PropertyReference) throws -> FetchPredicate {
        throw unsupported("isEmpty of the to-many relationship \(reference.summary) (not yet supported by the core)")
    }

    /// `reference.contains { test }` (`all`: `allSatisfy`), the test already translated one scope deeper.
    func toManyTest(_ reference: PropertyReference, all: Bool, _ test: FetchPredicate) throws -> FetchPredicate {
        throw unsupported("a to-many test on \(reference.summary) (not yet supported by the core)")
    }
}
