import Foundation

/// A value as a SQL database stores it: what statements bind and rows hold (SQLite's five storage
/// classes, which every dialect's column types map onto).
@usableFromInline package enum SQLValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// Equal as SQLite's BINARY collation compares: text by its UTF-8 bytes. Swift's `String ==`
    /// (which the synthesized conformance would use) treats canonically equivalent texts as equal,
    /// so "café" precomposed and decomposed — two values for a unique constraint — fell into one
    /// group and a failed save named records that did not collide.
    @usableFromInline package static func == (lhs: SQLValue, rhs: SQLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.integer(a), .integer(b)): a == b
        case let (.real(a), .real(b)): a == b
        case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
        case let (.blob(a), .blob(b)): a == b
        default: false
        }
    }

    /// Hashes consistently with `==` (text hashes by its canonical form, a coarser relation).
    @usableFromInline package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .real(let v): hasher.combine(2 as UInt8); hasher.combine(v)
        case .text(let v): hasher.combine(3 as UInt8); hasher.combine(v)
        case .blob(let v): hasher.combine(4 as UInt8); hasher.combine(v)
        }
    }
}
