import Foundation

/// Tests on to-many relationships: `contains(where:)`, `allSatisfy`, `isEmpty`, `count`, translated
/// to the core's `anyMatch`, `allMatch` and `count` (SQL `EXISTS` and counted subqueries in SQLite).
extension PredicateTranslator {
    /// `reference.count op value`.
    func countComparison(_ reference: PropertyReference, _ op: ComparisonOperator, _ value: Any) throws -> FetchPredicate {
        guard let n = value as? Int else { throw unsupported("a comparison of the count of \(reference.summary) with \(value)") }
        return .count(try path(reference), op, n)
    }

    /// `reference.isEmpty`: no target exists.
    func toManyIsEmpty(_ reference: PropertyReference) throws -> FetchPredicate {
        .not(.anyMatch(try path(reference), .constant(true)))
    }

    /// `reference.contains { test }` (`all`: `allSatisfy`), the test already translated one scope deeper.
    func toManyTest(_ reference: PropertyReference, all: Bool, _ test: FetchPredicate) throws -> FetchPredicate {
        let path = try path(reference)
        return all ? .allMatch(path, test) : .anyMatch(path, test)
    }
}
