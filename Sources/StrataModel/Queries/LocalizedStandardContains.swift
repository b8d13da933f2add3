import Foundation

/// `localizedStandardContains` for `#Predicate` on Linux.
///
/// Foundation defines this node only on Apple platforms, so on Linux `#Predicate { $0.title
/// .localizedStandardContains(text) }` — the search SwiftData's guides use — would not compile.
/// Strata supplies the builder the macro calls. The store translates it to a case-insensitive
/// `contains` (both sides lowercased with Unicode rules, then compared by bytes); unlike Apple's,
/// it does not ignore diacritics or width. Evaluating the predicate in memory gives the same
/// answers as the store.
public struct StrataLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
where Root.Output: StringProtocol, Other.Output: StringProtocol {
    /// The searched string.
    public let root: Root
    /// The text searched for.
    public let other: Other

    /// The node for `root.localizedStandardContains(other)`.
    public init(root: Root, other: Other) {
        self.root = root
        self.other = other
    }

    /// Whether `root`, lowercased, contains `other`, lowercased (byte comparison, as the stores do).
    public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        let haystack = Array(String(try root.evaluate(bindings)).lowercased().utf8)
        let needle = Array(String(try other.evaluate(bindings)).lowercased().utf8)
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }
}

extension StrataLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}

extension StrataLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}

extension StrataLocalizedStandardContains: StandardPredicateExpression where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension StrataLocalizedStandardContains: TranslatableExpression {
    func strataTerm(_ t: PredicateTranslator) throws -> PredicateTerm {
        let r = try t.term(root), o = try t.term(other)
        return try t.folded(self, r, o) ?? .condition(t.textSearch(r, .contains, o, caseInsensitive: true))
    }
}

extension PredicateExpressions {
    /// What `#Predicate` calls for `localizedStandardContains` (missing from Foundation on Linux).
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StrataLocalizedStandardContains<Root, Other> {
        StrataLocalizedStandardContains(root: root, other: other)
    }
}
