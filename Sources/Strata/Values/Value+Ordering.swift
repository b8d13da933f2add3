import Foundation

/// The one ordering and matching semantics every backend must reproduce.
///
/// Written down in `docs/store-contract.md` ("Fetch semantics"): `nil` sorts before every value;
/// numbers compare arithmetically (−0 equals +0) and NaN sorts after +infinity; strings, data and
/// URLs compare by their bytes (UTF-8 for text), which is also what SQLite's BINARY collation and
/// LMDB's key order do, so pushed-down queries agree with this evaluator.
extension Value {
    /// Total order used by sort descriptors. Values of different types order by type, `nil` first.
    public static func sortOrder(_ lhs: Value, _ rhs: Value) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case let (.bool(a), .bool(b)): return a == b ? 0 : (a ? 1 : -1)
        case let (.int(a), .int(b)): return a == b ? 0 : (a < b ? -1 : 1)
        case let (.double(a), .double(b)): return compareDoubles(a, b)
        case let (.date(a), .date(b)):
            return compareDoubles(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case let (.string(a), .string(b)): return compareBytes(a.utf8, b.utf8)
        case let (.data(a), .data(b)): return compareBytes(a, b)
        case let (.uuid(a), .uuid(b)): return compareBytes(a.bytes, b.bytes)
        case let (.url(a), .url(b)): return compareBytes(a.absoluteString.utf8, b.absoluteString.utf8)
        default:
            return (lhs.typeRank < rhs.typeRank) ? -1 : 1
        }
    }

    /// Evaluates `lhs op rhs` as a predicate does: Swift's optional semantics for `nil`
    /// (`nil == nil` holds, `nil < x` does not) and IEEE semantics for NaN (equal to nothing).
    public static func satisfies(_ lhs: Value, _ op: ComparisonOperator, _ rhs: Value) -> Bool {
        if lhs.isNull || rhs.isNull {
            switch op {
            case .equal: return lhs.isNull && rhs.isNull
            case .notEqual: return !(lhs.isNull && rhs.isNull)
            default: return false
            }
        }
        if lhs.isNaN || rhs.isNaN { return op == .notEqual }
        let order = sortOrder(lhs, rhs)
        switch op {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }

    /// The key a unique constraint compares: numerically equal doubles (−0, +0) are one key; NaN,
    /// which equals nothing, never collides, like `nil` (`.null` is returned for it); every other
    /// value is itself.
    public var uniqueKey: Value {
        switch self {
        case .double(let d) where d == 0: .double(0)
        case .double(let d) where d.isNaN: .null
        case .date(let d) where d.timeIntervalSinceReferenceDate == 0: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .date(let d) where d.timeIntervalSinceReferenceDate.isNaN: .null
        default: self
        }
    }

    var isNaN: Bool {
        switch self {
        case .double(let d): d.isNaN
        case .date(let d): d.timeIntervalSinceReferenceDate.isNaN
        default: false
        }
    }

    private var typeRank: Int {
        guard let type else { return -1 }
        return AttributeType.allCases.firstIndex(of: type) ?? 0
    }
}

private func compareDoubles(_ a: Double, _ b: Double) -> Int {
    switch (a.isNaN, b.isNaN) {
    case (true, true): return 0
    case (true, false): return 1
    case (false, true): return -1
    case (false, false): return a == b ? 0 : (a < b ? -1 : 1)
    }
}

private func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
    var left = a.makeIterator()
    var right = b.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (x?, y?) where x != y: return x < y ? -1 : 1
        default: continue
        }
    }
}

extension UUID {
    /// The 16 bytes of the UUID, in order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}

/// Byte-wise (UTF-8) string matching used by the `contains` / `hasPrefix` / `hasSuffix` operators.
enum TextMatch {
    static func matches(_ text: String, _ op: StringOperator, _ pattern: String, caseInsensitive: Bool) -> Bool {
        let haystack = Array((caseInsensitive ? text.lowercased() : text).utf8)
        let needle = Array((caseInsensitive ? pattern.lowercased() : pattern).utf8)
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        switch op {
        case .hasPrefix: return haystack[..<needle.count].elementsEqual(needle)
        case .hasSuffix: return haystack[(haystack.count - needle.count)...].elementsEqual(needle)
        case .contains:
            let last = haystack.count - needle.count
            var start = 0
            while start <= last {
                if haystack[start] == needle[0], haystack[start..<(start + needle.count)].elementsEqual(needle) {
                    return true
                }
                start += 1
            }
            return false
        }
    }
}
