import Foundation

/// The lower bound a history predicate puts on `token` — `$0.token > last` (or `>=`, or written
/// the other way round, alone or inside `&&`) — so a fetch reads only what follows it and an
/// expired token is an error, not a silent gap (`ModelContext.fetchHistory`).
///
/// Only the store-level query is narrowed: the whole predicate is still evaluated on what it reads.
enum HistoryPredicateBound {
    /// The transactions after which the predicate can match anything, or `nil` when it puts no
    /// lower bound on `token` that can be read from its expression.
    static func after(_ predicate: Predicate<DefaultHistoryTransaction>) -> StoreHistoryToken? {
        guard let bound = (predicate.expression as? any TokenLowerBounding)?.tokenLowerBound else { return nil }
        let token = bound.token.storeToken
        return bound.inclusive ? StoreHistoryToken(storeIdentifier: token.storeIdentifier, transaction: token.transaction - 1) : token
    }
}

/// A predicate expression that may bound `DefaultHistoryTransaction.token` from below.
protocol TokenLowerBounding {
    /// The bound: `token > value` (not inclusive) or `token >= value` (inclusive).
    var tokenLowerBound: (token: DefaultHistoryToken, inclusive: Bool)? { get }
}

extension PredicateExpressions.Conjunction: TokenLowerBounding {
    /// Either side's bound, the higher one when both have one: `a && b` admits only what both admit.
    var tokenLowerBound: (token: DefaultHistoryToken, inclusive: Bool)? {
        let left = (lhs as? any TokenLowerBounding)?.tokenLowerBound, right = (rhs as? any TokenLowerBounding)?.tokenLowerBound
        guard let left, let right else { return left ?? right }
        return right.token > left.token || (right.token == left.token && !right.inclusive) ? right : left
    }
}

extension PredicateExpressions.Comparison: TokenLowerBounding {
    /// `token > v`, `token >= v`, `v < token` or `v <= token`.
    var tokenLowerBound: (token: DefaultHistoryToken, inclusive: Bool)? {
        typealias TokenPath = PredicateExpressions.KeyPath<PredicateExpressions.Variable<DefaultHistoryTransaction>, DefaultHistoryToken>
        typealias TokenValue = PredicateExpressions.Value<DefaultHistoryToken>
        if let path = lhs as? TokenPath, path.keyPath == \DefaultHistoryTransaction.token, let value = rhs as? TokenValue {
            switch op {
            case .greaterThan: return (value.value, false)
            case .greaterThanOrEqual: return (value.value, true)
            default: return nil
            }
        }
        if let path = rhs as? TokenPath, path.keyPath == \DefaultHistoryTransaction.token, let value = lhs as? TokenValue {
            switch op {
            case .lessThan: return (value.value, false)
            case .lessThanOrEqual: return (value.value, true)
            default: return nil
            }
        }
        return nil
    }
}
