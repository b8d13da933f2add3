import Foundation
import StrataModel

/// One generated `#Predicate`: its source text (for messages) and the expression tree Foundation's
/// macro would build for it, made for the predicate's variable.
struct GeneratedCondition {
    typealias Item = PredicateExpressions.Variable<OracleItem>
    let text: String
    let build: (Item) -> any StandardPredicateExpression<Bool>

    /// The predicate, as `#Predicate<OracleItem> { text }` would make it.
    var predicate: Predicate<OracleItem> { Predicate { build($0) } }
}

/// A comparison operator of Swift's, for generated comparisons.
enum GeneratedOperator: String, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    static let equalities: [GeneratedOperator] = [.equal, .notEqual]

    /// `lhs op rhs` as Foundation's expression nodes.
    func node<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> any StandardPredicateExpression<Bool>
    where L.Output == R.Output, L.Output: Comparable {
        switch self {
        case .equal: PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
        case .notEqual: PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs)
        case .less: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThan)
        case .lessOrEqual: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThanOrEqual)
        case .greater: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThan)
        case .greaterOrEqual: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThanOrEqual)
        }
    }

    /// `sequence.allSatisfy { lhs($0) op rhs($0) }` (`all`), else `sequence.contains { … }`. The
    /// test's node type must be concrete for Foundation's initialisers, hence one call per operator.
    func quantified<S: StandardPredicateExpression, L: StandardPredicateExpression, R: StandardPredicateExpression>(
        _ sequence: S, all: Bool,
        _ lhs: @escaping (PredicateExpressions.Variable<S.Output.Element>) -> L, _ rhs: @escaping (PredicateExpressions.Variable<S.Output.Element>) -> R
    ) -> any StandardPredicateExpression<Bool> where S.Output: Sequence, L.Output == R.Output, L.Output: Comparable {
        switch self {
        case .equal: Self.quantified(sequence, all) { PredicateExpressions.Equal(lhs: lhs($0), rhs: rhs($0)) }
        case .notEqual: Self.quantified(sequence, all) { PredicateExpressions.NotEqual(lhs: lhs($0), rhs: rhs($0)) }
        case .less: Self.quantified(sequence, all) { PredicateExpressions.Comparison(lhs: lhs($0), rhs: rhs($0), op: .lessThan) }
        case .lessOrEqual: Self.quantified(sequence, all) { PredicateExpressions.Comparison(lhs: lhs($0), rhs: rhs($0), op: .lessThanOrEqual) }
        case .greater: Self.quantified(sequence, all) { PredicateExpressions.Comparison(lhs: lhs($0), rhs: rhs($0), op: .greaterThan) }
        case .greaterOrEqual: Self.quantified(sequence, all) { PredicateExpressions.Comparison(lhs: lhs($0), rhs: rhs($0), op: .greaterThanOrEqual) }
        }
    }

    private static func quantified<S: StandardPredicateExpression, T: StandardPredicateExpression<Bool>>(
        _ sequence: S, _ all: Bool, _ test: (PredicateExpressions.Variable<S.Output.Element>) -> T
    ) -> any StandardPredicateExpression<Bool> where S.Output: Sequence {
        all ? PredicateExpressions.SequenceAllSatisfy(sequence, builder: test) : PredicateExpressions.SequenceContainsWhere(sequence, builder: test)
    }

    /// `lhs == rhs` or `lhs != rhs` (only those two) for values that are only `Equatable`.
    func equality<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> any StandardPredicateExpression<Bool>
    where L.Output == R.Output, L.Output: Equatable {
        self == .equal ? PredicateExpressions.Equal(lhs: lhs, rhs: rhs) : PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs)
    }
}

/// Random predicates over `OracleItem` from a grammar of what docs/queries.md says is supported:
/// comparisons with the value on either side (strings, integers, doubles with −0, ±∞ and NaN,
/// dates, optionals against values and `nil`), `??`, optional chains through the to-one that can
/// be nil (`== true`, `== false`, `== nil`), enums with raw values, captured arrays with
/// `contains`, `contains(where:)` and `allSatisfy`, ranges, to-many `contains`, `allSatisfy`,
/// `count` and `isEmpty`, string search, conditionals, and `&&`, `||`, `!` over all of them.
struct PredicateGenerator {
    typealias Item = GeneratedCondition.Item
    var random: OracleRandom
    /// Captured objects predicates may compare with.
    let groups: [OracleGroup]
    let labels: [OracleLabel]
    /// Leave out what the model layer documents it does not re-judge for unsaved changes: a value
    /// read through a related object's to-many (`$0.group?.items.count`), which another object's
    /// unsaved change can move (docs/queries.md, "Unsaved changes").
    let pending: Bool

    /// A condition of at most `depth` levels of `&&`, `||` and `!`.
    mutating func condition(depth: Int = 3) -> GeneratedCondition {
        guard depth > 0, random.chance(45) else { return leaf() }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let a = condition(depth: depth - 1), b = condition(depth: depth - 1)
            return GeneratedCondition(text: "(\(a.text) && \(b.text))") { v in Self.and(a.build(v), b.build(v)) }
        case 1:
            let a = condition(depth: depth - 1), b = condition(depth: depth - 1)
            return GeneratedCondition(text: "(\(a.text) || \(b.text))") { v in Self.or(a.build(v), b.build(v)) }
        default:
            let a = condition(depth: depth - 1)
            return GeneratedCondition(text: "!(\(a.text))") { v in Self.not(a.build(v)) }
        }
    }

    static func and<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ l: L, _ r: R) -> any StandardPredicateExpression<Bool> {
        PredicateExpressions.Conjunction(lhs: l, rhs: r)
    }

    static func or<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ l: L, _ r: R) -> any StandardPredicateExpression<Bool> {
        PredicateExpressions.Disjunction(lhs: l, rhs: r)
    }

    static func not<W: StandardPredicateExpression<Bool>>(_ w: W) -> any StandardPredicateExpression<Bool> {
        PredicateExpressions.Negation(w)
    }

    static func key<V>(_ v: Item, _ path: KeyPath<OracleItem, V> & Sendable) -> PredicateExpressions.KeyPath<Item, V> {
        PredicateExpressions.KeyPath(root: v, keyPath: path)
    }

    static func describe(_ value: Any) -> String {
        if let s = value as? String { return s.debugDescription }
        if let d = value as? Date { return "Date(\(d.timeIntervalSince1970))" }
        if let o = value as? (any OptionalDescribing) { return o.describedValue }
        if let group = value as? OracleGroup { return "group(\(group.name))" }
        if let label = value as? OracleLabel { return "label(\(label.name))" }
        return "\(value)"
    }

    // MARK: Leaves

    mutating func leaf() -> GeneratedCondition {
        let makers: [(inout PredicateGenerator) -> GeneratedCondition] = [
            { $0.comparison("name", \.name, OraclePools.strings) },
            { $0.comparison("count", \.count, OraclePools.ints) },
            { $0.comparison("score", \.score, OraclePools.doubles) },
            { $0.comparison("when", \.when, OraclePools.dates) },
            { $0.optionalEquality("note", \.note, OraclePools.strings) },
            { $0.optionalEquality("bonus", \.bonus, OraclePools.ints) },
            { $0.optionalEquality("kind", \.kind, OracleKind.allCases) },
            { $0.coalesced("bonus", \.bonus, OraclePools.ints) },
            { $0.coalesced("note", \.note, OraclePools.strings) },
            { $0.flag() },
            { $0.level() },
            { $0.groupChain() },
            { $0.groupIdentity() },
            { $0.noteSearch() },
            { $0.search() },
            { $0.capturedList() },
            { $0.capturedTest() },
            { $0.range() },
            { $0.labelTest() },
            { $0.labelCount() },
            { $0.labelMembership() },
            { $0.conditional() },
            { $0.nameAgainstNote() },
            { $0.groupItemCount() },
        ]
        return random.pick(makers)(&self)
    }

    /// `$0.field op value` or `value op $0.field`.
    mutating func comparison<V: Comparable & Codable & Sendable>(_ name: String, _ path: KeyPath<OracleItem, V> & Sendable, _ pool: [V]) -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.allCases), value = random.pick(pool)
        if random.chance(50) {
            return GeneratedCondition(text: "\(Self.describe(value)) \(op.rawValue) $0.\(name)") { v in op.node(PredicateExpressions.Value(value), Self.key(v, path)) }
        }
        return GeneratedCondition(text: "$0.\(name) \(op.rawValue) \(Self.describe(value))") { v in op.node(Self.key(v, path), PredicateExpressions.Value(value)) }
    }

    /// `$0.optional == value`, `!= value`, `== nil`, `!= nil`, either way round.
    mutating func optionalEquality<V: Equatable & Codable & Sendable>(_ name: String, _ path: KeyPath<OracleItem, V?> & Sendable, _ pool: [V]) -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.equalities)
        if random.chance(30) {
            return GeneratedCondition(text: "$0.\(name) \(op.rawValue) nil") { v in op.equality(Self.key(v, path), PredicateExpressions.NilLiteral<V>()) }
        }
        let value: V? = random.pick(pool)
        if random.chance(50) {
            return GeneratedCondition(text: "\(Self.describe(value as Any)) \(op.rawValue) $0.\(name)") { v in op.equality(PredicateExpressions.Value(value), Self.key(v, path)) }
        }
        return GeneratedCondition(text: "$0.\(name) \(op.rawValue) \(Self.describe(value as Any))") { v in op.equality(Self.key(v, path), PredicateExpressions.Value(value)) }
    }

    /// `($0.optional ?? fallback) op value`.
    mutating func coalesced<V: Comparable & Codable & Sendable>(_ name: String, _ path: KeyPath<OracleItem, V?> & Sendable, _ pool: [V]) -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.allCases), fallback = random.pick(pool), value = random.pick(pool)
        return GeneratedCondition(text: "($0.\(name) ?? \(Self.describe(fallback))) \(op.rawValue) \(Self.describe(value))") { v in
            op.node(PredicateExpressions.NilCoalesce(lhs: Self.key(v, path), rhs: PredicateExpressions.Value(fallback)), PredicateExpressions.Value(value))
        }
    }

    /// `$0.flag`, `!$0.flag`, `$0.flag == b`, `b != $0.flag`.
    mutating func flag() -> GeneratedCondition {
        let b = random.chance(50)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return GeneratedCondition(text: "$0.flag") { v in Self.key(v, \.flag) }
        case 1: return GeneratedCondition(text: "$0.flag == \(b)") { v in PredicateExpressions.Equal(lhs: Self.key(v, \.flag), rhs: PredicateExpressions.Value(b)) }
        default: return GeneratedCondition(text: "\(b) != $0.flag") { v in PredicateExpressions.NotEqual(lhs: PredicateExpressions.Value(b), rhs: Self.key(v, \.flag)) }
        }
    }

    /// `$0.level == .high`, `$0.level.rawValue op n`.
    mutating func level() -> GeneratedCondition {
        let level = random.pick(OracleLevel.allCases)
        if random.chance(50) {
            let op = random.pick(GeneratedOperator.equalities)
            return GeneratedCondition(text: "$0.level \(op.rawValue) .\(level)") { v in op.equality(Self.key(v, \.level), PredicateExpressions.Value(level)) }
        }
        let op = random.pick(GeneratedOperator.allCases), raw = Int.random(in: -1...3, using: &random)
        return GeneratedCondition(text: "$0.level.rawValue \(op.rawValue) \(raw)") { v in
            op.node(PredicateExpressions.KeyPath(root: Self.key(v, \.level), keyPath: \OracleLevel.rawValue), PredicateExpressions.Value(raw))
        }
    }

    /// `$0.group?.name op value`, `$0.group?.archived == true / false / nil`.
    mutating func groupChain() -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.equalities)
        if random.chance(50) {
            let name: String? = random.chance(15) ? nil : random.pick(OraclePools.groupNames)
            return GeneratedCondition(text: "$0.group?.name \(op.rawValue) \(Self.describe(name as Any))") { v in
                op.equality(PredicateExpressions.OptionalFlatMap(Self.key(v, \.group)) { g in PredicateExpressions.KeyPath(root: g, keyPath: \OracleGroup.name) }, PredicateExpressions.Value(name))
            }
        }
        let archived: Bool? = random.chance(20) ? nil : random.chance(50)
        return GeneratedCondition(text: "$0.group?.archived \(op.rawValue) \(Self.describe(archived as Any))") { v in
            op.equality(PredicateExpressions.OptionalFlatMap(Self.key(v, \.group)) { g in PredicateExpressions.KeyPath(root: g, keyPath: \OracleGroup.archived) }, PredicateExpressions.Value(archived))
        }
    }

    /// `$0.group == captured`, `!= nil`, `[g1, nil].contains($0.group)`.
    mutating func groupIdentity() -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.equalities)
        if random.chance(30) {
            let list: [OracleGroup?] = groups.filter { _ in random.chance(40) } + (random.chance(50) ? [nil] : [])
            return GeneratedCondition(text: "\(list.map { Self.describe($0 as Any) }).contains($0.group)") { v in
                PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(list), element: Self.key(v, \.group))
            }
        }
        let group: OracleGroup? = random.chance(20) ? nil : random.pick(groups)
        return GeneratedCondition(text: "$0.group \(op.rawValue) \(Self.describe(group as Any))") { v in op.equality(Self.key(v, \.group), PredicateExpressions.Value(group)) }
    }

    /// `$0.note?.contains(text) == true / false / nil` (an optional Boolean that can be nil).
    mutating func noteSearch() -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.equalities), text = random.pick(OraclePools.fragments)
        let expected: Bool? = random.chance(20) ? nil : random.chance(50)
        return GeneratedCondition(text: "$0.note?.contains(\(text.debugDescription)) \(op.rawValue) \(Self.describe(expected as Any))") { v in
            op.equality(
                PredicateExpressions.OptionalFlatMap(Self.key(v, \.note)) { s in PredicateExpressions.CollectionContainsCollection(base: s, other: PredicateExpressions.Value(text)) },
                PredicateExpressions.Value(expected))
        }
    }

    /// `$0.name.contains(x)`, `.starts(with: x)`, `.localizedStandardContains(x)`, `.isEmpty`.
    mutating func search() -> GeneratedCondition {
        let text = random.pick(OraclePools.fragments)
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return GeneratedCondition(text: "$0.name.contains(\(text.debugDescription))") { v in
                PredicateExpressions.CollectionContainsCollection(base: Self.key(v, \.name), other: PredicateExpressions.Value(text))
            }
        case 1:
            return GeneratedCondition(text: "$0.name.starts(with: \(text.debugDescription))") { v in
                PredicateExpressions.SequenceStartsWith(base: Self.key(v, \.name), prefix: PredicateExpressions.Value(text))
            }
        case 2:
            return GeneratedCondition(text: "$0.name.localizedStandardContains(\(text.debugDescription))") { v in
                PredicateExpressions.build_localizedStandardContains(Self.key(v, \.name), PredicateExpressions.Value(text))
            }
        default:
            return GeneratedCondition(text: "$0.name.isEmpty") { v in PredicateExpressions.KeyPath(root: Self.key(v, \.name), keyPath: \String.isEmpty) }
        }
    }

    /// `[a, b].contains($0.field)` over a captured array.
    mutating func capturedList() -> GeneratedCondition {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let list = OraclePools.strings.filter { _ in random.chance(25) }
            return GeneratedCondition(text: "\(list).contains($0.name)") { v in PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(list), element: Self.key(v, \.name)) }
        case 1:
            let list = OraclePools.doubles.filter { _ in random.chance(25) }
            return GeneratedCondition(text: "\(list).contains($0.score)") { v in PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(list), element: Self.key(v, \.score)) }
        case 2:
            let list = OracleLevel.allCases.filter { _ in random.chance(50) }
            return GeneratedCondition(text: "\(list).contains($0.level)") { v in PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(list), element: Self.key(v, \.level)) }
        default:
            let list: [OracleKind?] = OracleKind.allCases.filter { _ in random.chance(50) } + (random.chance(50) ? [nil] : [])
            return GeneratedCondition(text: "\(list).contains($0.kind)") { v in PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(list), element: Self.key(v, \.kind)) }
        }
    }

    /// `list.allSatisfy { $0 op item.count }`, `list.contains { … }` over a captured array.
    mutating func capturedTest() -> GeneratedCondition {
        let list = OraclePools.ints.filter { _ in random.chance(30) }, op = random.pick(GeneratedOperator.allCases), all = random.chance(50)
        return GeneratedCondition(text: "\(list).\(all ? "allSatisfy" : "contains") { $0 \(op.rawValue) item.count }") { v in
            op.quantified(PredicateExpressions.Value(list), all: all, { $0 }, { _ in Self.key(v, \.count) })
        }
    }

    /// `(lo...hi).contains($0.count)`, `(lo..<hi).contains($0.score)`.
    mutating func range() -> GeneratedCondition {
        let closed = random.chance(50)
        if random.chance(50) {
            let a = random.pick(OraclePools.ints), b = random.pick(OraclePools.ints), lo = min(a, b), hi = max(a, b)
            return GeneratedCondition(text: "(\(lo)\(closed ? "..." : "..<")\(hi)).contains($0.count)") { v in
                if closed { return PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.ClosedRange(lower: PredicateExpressions.Value(lo), upper: PredicateExpressions.Value(hi)), element: Self.key(v, \.count)) }
                return PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.Range(lower: PredicateExpressions.Value(lo), upper: PredicateExpressions.Value(hi)), element: Self.key(v, \.count))
            }
        }
        let bounds = OraclePools.doubles.filter { !$0.isNaN }  // a range with a NaN bound traps in Swift
        let a = random.pick(bounds), b = random.pick(bounds), lo = min(a, b), hi = max(a, b)
        return GeneratedCondition(text: "(\(lo)\(closed ? "..." : "..<")\(hi)).contains($0.score)") { v in
            if closed { return PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.ClosedRange(lower: PredicateExpressions.Value(lo), upper: PredicateExpressions.Value(hi)), element: Self.key(v, \.score)) }
            return PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.Range(lower: PredicateExpressions.Value(lo), upper: PredicateExpressions.Value(hi)), element: Self.key(v, \.score))
        }
    }

    /// `$0.labels.contains { $0.name == x }`, `$0.labels.allSatisfy { $0.weight op n }`.
    mutating func labelTest() -> GeneratedCondition {
        let all = random.chance(50)
        let call = all ? "allSatisfy" : "contains"
        if random.chance(50) {
            let op = random.pick(GeneratedOperator.allCases), name = random.pick(OraclePools.labelNames)
            return GeneratedCondition(text: "$0.labels.\(call) { $0.name \(op.rawValue) \(name.debugDescription) }") { v in
                op.quantified(Self.key(v, \.labels), all: all, { PredicateExpressions.KeyPath(root: $0, keyPath: \OracleLabel.name) }, { _ in PredicateExpressions.Value(name) })
            }
        }
        let op = random.pick(GeneratedOperator.allCases), weight = random.pick(OraclePools.ints)
        return GeneratedCondition(text: "$0.labels.\(call) { \(weight) \(op.rawValue) $0.weight }") { v in
            op.quantified(Self.key(v, \.labels), all: all, { _ in PredicateExpressions.Value(weight) }, { PredicateExpressions.KeyPath(root: $0, keyPath: \OracleLabel.weight) })
        }
    }

    /// `$0.labels.count op n` (either way round), `$0.labels.isEmpty`.
    mutating func labelCount() -> GeneratedCondition {
        if random.chance(30) {
            return GeneratedCondition(text: "$0.labels.isEmpty") { v in PredicateExpressions.KeyPath(root: Self.key(v, \.labels), keyPath: \[OracleLabel].isEmpty) }
        }
        let op = random.pick(GeneratedOperator.allCases), n = Int.random(in: -1...6, using: &random)
        if random.chance(50) {
            return GeneratedCondition(text: "\(n) \(op.rawValue) $0.labels.count") { v in
                op.node(PredicateExpressions.Value(n), PredicateExpressions.KeyPath(root: Self.key(v, \.labels), keyPath: \[OracleLabel].count))
            }
        }
        return GeneratedCondition(text: "$0.labels.count \(op.rawValue) \(n)") { v in
            op.node(PredicateExpressions.KeyPath(root: Self.key(v, \.labels), keyPath: \[OracleLabel].count), PredicateExpressions.Value(n))
        }
    }

    /// `$0.labels.contains(label)` with a captured label.
    mutating func labelMembership() -> GeneratedCondition {
        let label = random.pick(labels)
        return GeneratedCondition(text: "$0.labels.contains(\(Self.describe(label)))") { v in
            PredicateExpressions.SequenceContains(sequence: Self.key(v, \.labels), element: PredicateExpressions.Value(label))
        }
    }

    /// `($0.flag ? $0.count : n) op m`.
    mutating func conditional() -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.allCases), n = random.pick(OraclePools.ints), m = random.pick(OraclePools.ints)
        return GeneratedCondition(text: "($0.flag ? $0.count : \(n)) \(op.rawValue) \(m)") { v in
            op.node(PredicateExpressions.Conditional(test: Self.key(v, \.flag), trueBranch: Self.key(v, \.count), falseBranch: PredicateExpressions.Value(n)), PredicateExpressions.Value(m))
        }
    }

    /// `$0.name op ($0.note ?? fallback)`: two properties of one object.
    mutating func nameAgainstNote() -> GeneratedCondition {
        let op = random.pick(GeneratedOperator.allCases), fallback = random.pick(OraclePools.strings)
        return GeneratedCondition(text: "$0.name \(op.rawValue) ($0.note ?? \(fallback.debugDescription))") { v in
            op.node(Self.key(v, \.name), PredicateExpressions.NilCoalesce(lhs: Self.key(v, \.note), rhs: PredicateExpressions.Value(fallback)))
        }
    }

    /// `($0.group?.items.count ?? 0) op n` (not with unsaved changes: see `pending`).
    mutating func groupItemCount() -> GeneratedCondition {
        if pending { return groupChain() }
        let op = random.pick(GeneratedOperator.allCases), n = Int.random(in: -1...20, using: &random)
        return GeneratedCondition(text: "($0.group?.items.count ?? 0) \(op.rawValue) \(n)") { v in
            op.node(
                PredicateExpressions.NilCoalesce(
                    lhs: PredicateExpressions.OptionalFlatMap(Self.key(v, \.group)) { g in
                        PredicateExpressions.KeyPath(root: PredicateExpressions.KeyPath(root: g, keyPath: \OracleGroup.items), keyPath: \[OracleItem].count)
                    },
                    rhs: PredicateExpressions.Value(0)),
                PredicateExpressions.Value(n))
        }
    }
}

/// Describes an optional without Swift's `Optional(…)` wrapping.
protocol OptionalDescribing {
    var describedValue: String { get }
}

extension Optional: OptionalDescribing {
    var describedValue: String {
        switch self {
        case .none: "nil"
        case .some(let value): PredicateGenerator.describe(value)
        }
    }
}
