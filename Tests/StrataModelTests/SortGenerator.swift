import Foundation
import StrataModel

/// One generated sort key: Foundation's `SortDescriptor` and the oracle's own comparison of two
/// objects by Swift's `<` on the same values (negative, zero, positive), which knows the orders
/// Strata documents (docs/queries.md, "Sort descriptors"; docs/store-contract.md, "Value order"):
/// `nil` first ascending, NaN after +∞, −0 equal to +0, strings by UTF-8 bytes.
struct GeneratedSortKey {
    let text: String
    let descriptor: SortDescriptor<OracleItem>
    let compare: (OracleItem, OracleItem) -> Int

    /// A random key over the sortable attributes and the to-one's name, either direction.
    static func random(_ random: inout OracleRandom) -> GeneratedSortKey {
        let reverse = random.chance(50)
        let order: Foundation.SortOrder = reverse ? .reverse : .forward
        let suffix = reverse ? ", order: .reverse" : ""
        func key(_ text: String, _ descriptor: SortDescriptor<OracleItem>, _ compare: @escaping (OracleItem, OracleItem) -> Int) -> GeneratedSortKey {
            GeneratedSortKey(text: "SortDescriptor(\(text)\(suffix))", descriptor: descriptor, compare: reverse ? { compare($1, $0) } : compare)
        }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return key("\\.name", SortDescriptor(\.name, order: order)) { Oracle.order($0.name, $1.name) }
        case 1: return key("\\.name, comparator: .lexical", SortDescriptor(\.name, comparator: .lexical, order: order)) { Oracle.order($0.name, $1.name) }
        case 2: return key("\\.note", SortDescriptor(\.note, order: order)) { Oracle.order($0.note, $1.note) }
        case 3: return key("\\.count", SortDescriptor(\.count, order: order)) { Oracle.order($0.count, $1.count) }
        case 4: return key("\\.score", SortDescriptor(\.score, order: order)) { Oracle.order($0.score, $1.score) }
        case 5: return key("\\.bonus", SortDescriptor(\.bonus, order: order)) { Oracle.order($0.bonus, $1.bonus) }
        case 6: return key("\\.when", SortDescriptor(\.when, order: order)) { Oracle.order($0.when, $1.when) }
        default: return key("\\.group?.name", SortDescriptor(\.group?.name, order: order)) { Oracle.order($0.group?.name, $1.group?.name) }
        }
    }
}

/// The oracle's orders: Swift's `<`, with the documented exceptions spelled out.
enum Oracle {
    static func order<V: Comparable>(_ a: V, _ b: V) -> Int { a < b ? -1 : (b < a ? 1 : 0) }
    /// Numbers arithmetically; NaN after +∞ (Swift's `<` has no place for it).
    static func order(_ a: Double, _ b: Double) -> Int {
        switch (a.isNaN, b.isNaN) {
        case (true, true): 0
        case (true, false): 1
        case (false, true): -1
        case (false, false): a < b ? -1 : (b < a ? 1 : 0)
        }
    }
    /// Strings by UTF-8 bytes (Swift's order for the NFC text the pools hold).
    static func order(_ a: String, _ b: String) -> Int {
        a == b ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
    }
    static func order(_ a: String?, _ b: String?) -> Int { optional(a, b, order) }
    static func order(_ a: Int?, _ b: Int?) -> Int { optional(a, b, order) }
    /// `nil` first.
    static func optional<V>(_ a: V?, _ b: V?, _ order: (V, V) -> Int) -> Int {
        switch (a, b) {
        case (nil, nil): 0
        case (nil, _): -1
        case (_, nil): 1
        case (let a?, let b?): order(a, b)
        }
    }
}
