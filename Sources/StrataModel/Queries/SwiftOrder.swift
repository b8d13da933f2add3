import Foundation

/// Where the order of a Swift type and the order of its stored form part ways, and what an
/// ordering comparison or a sort on such a type does instead of answering wrongly.
///
/// The core types are stored as themselves and ordered the same way by every backend (numbers,
/// dates, UUIDs by bytes as Foundation's `<`, strings by UTF-8 bytes, which is Swift's order for
/// NFC text). A raw-value type (an enum with `String` raw values, say) is stored as its raw value,
/// but its `<` is whatever the type says: `enum Priority: String, Comparable { case low, medium, high }`
/// orders low < medium < high while the store's strings order "high" < "low" < "medium". A
/// `Codable` value is stored as a JSON document, whose text has no meaningful order at all.
enum SwiftOrder {
    /// How an ordering comparison or a sort on values of one type runs.
    enum Plan {
        /// The stored values order as the Swift values do: the store compares and sorts them.
        case stored
        /// The orders differ but every value is known (a `CaseIterable` type): an ordering
        /// comparison becomes membership in the cases Swift's `<` selects; a sort is refused.
        case cases([Any])
        /// The Swift order cannot be followed by the store, for the reason given.
        case refused(String)
    }

    /// The plan for values of `type` (an optional: for its wrapped type).
    static func plan(for type: Any.Type) -> Plan {
        if BuiltInAttributeTypes.contains(type) { return .stored }  // without a protocol cast
        if let optional = type as? any OptionalProtocol.Type { return plan(for: optional.wrappedType) }
        if type is any ModelAttributeValue.Type { return .stored }
        guard type is any Comparable.Type else { return .stored }  // no Swift order to follow
        guard type is any RawRepresentable.Type else {
            return .refused("\(type) is stored as a JSON document, whose text has no meaningful order")
        }
        guard let iterable = type as? any CaseIterable.Type else {
            return .refused("\(type) is stored by its raw value, whose order need not be \(type)'s own `<`; make \(type) CaseIterable so Strata can follow its order, or compare `.rawValue`")
        }
        let all = cases(iterable)
        return sameOrder(all) ? .stored : .cases(all)
    }

    /// Whether Swift's `<` and the stored raw values' order agree on `values`: sorted by Swift's
    /// `<` (n log n, not every pair), each neighbour must be stored strictly greater, or equal when
    /// Swift finds the two equal.
    private static func sameOrder(_ values: [Any]) -> Bool {
        let sorted = values.sorted { holds($0, .less, $1) == true }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            guard let x = PredicateConstants.storedValue(a), let y = PredicateConstants.storedValue(b), let less = holds(a, .less, b) else { return false }
            if !Value.satisfies(x, less ? .less : .equal, y) { return false }
        }
        return true
    }

    private static func cases<C: CaseIterable>(_: C.Type) -> [Any] { C.allCases.map { $0 as Any } }

    /// `lhs op rhs` by the Swift type's own operators; `nil` unless both are of one `Comparable` type.
    static func holds(_ lhs: Any, _ op: ComparisonOperator, _ rhs: Any) -> Bool? {
        guard let lhs = lhs as? any Comparable else { return nil }
        func open<C: Comparable>(_ a: C) -> Bool? {
            guard let b = rhs as? C else { return nil }
            return switch op {
            case .equal: a == b
            case .notEqual: a != b
            case .less: a < b
            case .lessOrEqual: a <= b
            case .greater: a > b
            case .greaterOrEqual: a >= b
            }
        }
        return open(lhs)
    }
}

extension ComparisonOperator {
    /// Whether the operator compares order (`<`, `<=`, `>`, `>=`) rather than equality.
    var isOrdering: Bool { self != .equal && self != .notEqual }
}
