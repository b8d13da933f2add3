import Foundation

/// How a sort key orders strings; every backend orders with the core's definition below, so one
/// descriptor gives one order everywhere.
///
/// Each comparator is a total order whose last resort is the byte order: two strings compare equal
/// only when their UTF-8 bytes are equal, so ties (and therefore the primary-key tie-break) never
/// depend on a backend's collation. Values that are not strings ignore the comparator.
///
/// ```swift
/// SortKey("title", comparator: .localizedStandard)   // "file2" before "file10", "Äpfel" before "apple"
/// ```
public enum StringComparator: String, Sendable, Hashable, Codable, CaseIterable {
    /// UTF-8 bytes, so uppercase before lowercase and accented letters after `z`: the core's
    /// default, and what SQLite's `BINARY` collation and LMDB's key order do.
    case byteOrder
    /// Lowercased with Swift's Unicode rules (`String.lowercased()`, as case-insensitive search does),
    /// then by code point; equal texts by bytes (`"Apple"` before `"apple"`). Accents still count.
    case caseInsensitive
    /// Finder-like: lowercased, canonically decomposed with combining marks removed (so `"É"` is
    /// `"e"`), and runs of ASCII digits compared as numbers (`"file2"` before `"file10"`, a number
    /// comparing with any other character as the digit `0` does); equal texts by bytes. Fixed
    /// rules with no locale, so the order is the same on every machine and backend.
    case localizedStandard

    /// The sign of `a` compared with `b` under this comparator: negative, zero or positive. Zero
    /// only when the two strings have the same bytes.
    public func compare(_ a: String, _ b: String) -> Int {
        if self == .byteOrder { return Value.sortOrder(.string(a), .string(b)) }
        return Self.compareBytes(sortKey(a), sortKey(b))
    }

    /// A byte string whose byte order is this comparator's order: `compare(a, b)` has the sign of
    /// comparing `sortKey(a)` with `sortKey(b)` byte by byte (a prefix first). Sorting by keys
    /// folds each string once instead of once per comparison.
    ///
    /// Layout: the folded text as 3-byte big-endian code points plus one (a number: the code point of
    /// `0` plus one, a 4-byte digit count, then its digits without leading zeros), three zero bytes,
    /// then the original UTF-8 bytes for the tie-break.
    public func sortKey(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count * 4 + 3)
        func append(_ scalar: UInt32) {
            let v = scalar + 1
            key.append(UInt8(truncatingIfNeeded: v >> 16))
            key.append(UInt8(truncatingIfNeeded: v >> 8))
            key.append(UInt8(truncatingIfNeeded: v))
        }
        switch self {
        case .byteOrder:
            for s in text.unicodeScalars { append(s.value) }
        case .caseInsensitive:
            for s in text.lowercased().unicodeScalars { append(s.value) }
        case .localizedStandard:
            let folded = text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                $0.properties.generalCategory != .nonspacingMark
            }
            var i = folded.startIndex
            while i < folded.endIndex {
                guard Self.isDigit(folded[i]) else {
                    append(folded[i].value)
                    i = folded.index(after: i)
                    continue
                }
                var end = i
                while end < folded.endIndex, Self.isDigit(folded[end]) { end = folded.index(after: end) }
                var digits = folded[i..<end].drop { $0 == "0" }.map { UInt8($0.value) }
                if digits.isEmpty { digits = [UInt8(ascii: "0")] }
                append(UInt32(UInt8(ascii: "0")))
                let count = UInt32(digits.count)
                key.append(contentsOf: [UInt8(count >> 24 & 0xff), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)])
                key.append(contentsOf: digits)
                i = end
            }
        }
        key.append(contentsOf: [0, 0, 0])
        key.append(contentsOf: text.utf8)
        return key
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    private static func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

extension SortKey {
    /// The value rows are ordered by for this key: a string becomes its comparator's `sortKey` (as
    /// `.data`, which orders by bytes), anything else is itself. Lets an in-memory sort apply any
    /// comparator with `Value.sortOrder` alone.
    public func sortValue(_ value: Value) -> Value {
        guard comparator != .byteOrder, case .string(let s) = value else { return value }
        return .data(Data(comparator.sortKey(s)))
    }
}
