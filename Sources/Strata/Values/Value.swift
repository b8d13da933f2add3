import Foundation

/// One attribute value, as every backend stores and returns it.
///
/// `Value` is the neutral currency between clients, the core and backends. Equality is *identity of
/// the stored value*: doubles compare by bit pattern (so `NaN == NaN` and `-0 != +0`) and strings by
/// their UTF-8 bytes, which is what a round-trip must preserve. Predicates and sorting use the
/// comparison rules in `Value+Ordering.swift` instead, which follow arithmetic.
public enum Value: Sendable {
    /// No value (an optional attribute left empty).
    case null
    /// A `Bool`.
    case bool(Bool)
    /// A 64-bit integer.
    case int(Int64)
    /// A double.
    case double(Double)
    /// A string.
    case string(String)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case url(URL)

    /// The attribute type this value belongs to, or `nil` for `.null`.
    public var type: AttributeType? {
        switch self {
        case .null: nil
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .url: .url
        }
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The payload if this is `.bool`.
    public var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The payload if this is `.int`.
    public var int: Int64? { if case .int(let v) = self { v } else { nil } }
    /// The payload if this is `.double`.
    public var double: Double? { if case .double(let v) = self { v } else { nil } }
    /// The payload if this is `.string`.
    public var string: String? { if case .string(let v) = self { v } else { nil } }
    /// The payload if this is `.date`.
    public var date: Date? { if case .date(let v) = self { v } else { nil } }
    /// The payload if this is `.data`.
    public var data: Data? { if case .data(let v) = self { v } else { nil } }
    /// The payload if this is `.uuid`.
    public var uuid: UUID? { if case .uuid(let v) = self { v } else { nil } }
    /// The payload if this is `.url`.
    public var url: URL? { if case .url(let v) = self { v } else { nil } }
}

extension Value: Hashable {
    /// Identity of stored values: bit-exact doubles, byte-exact strings.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): sameBytes(a, b)
        case let (.date(a), .date(b)): a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(a), .data(b)): a == b
        case let (.uuid(a), .uuid(b)): a == b
        case let (.url(a), .url(b)): a.absoluteString.utf8.elementsEqual(b.absoluteString.utf8)
        default: false
        }
    }

    /// Hashes consistently with `==` (strings hash by their canonical form, a coarser relation).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let v): hasher.combine(v)
        case .int(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v.bitPattern)
        case .string(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v): hasher.combine(v)
        case .uuid(let v): hasher.combine(v)
        case .url(let v): hasher.combine(v.absoluteString)
        }
    }
}

/// Whether two strings have the same UTF-8 bytes (not merely canonical equivalence, as `==` checks).
@inline(__always)
func sameBytes(_ a: String, _ b: String) -> Bool {
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    var a = a, b = b
    return a.withUTF8 { x in b.withUTF8 { y in count == 0 || memcmp(x.baseAddress!, y.baseAddress!, count) == 0 } }
}

extension Value: CustomStringConvertible {
    /// A short, readable rendering for messages and reports.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let v): String(v)
        case .int(let v): String(v)
        case .double(let v): String(v)
        case .string(let v): String(reflecting: v.count > 60 ? String(v.prefix(57)) + "…" : v)
        case .date(let v): String(v.timeIntervalSince1970) + "s"
        case .data(let v): "<\(v.count) bytes>"
        case .uuid(let v): v.uuidString
        case .url(let v): v.absoluteString
        }
    }
}

extension Value: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral
{
    /// `true` / `false` literals.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Integer literals become `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// Float literals become `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// String literals become `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `nil` becomes `.null`.
    public init(nilLiteral: ()) { self = .null }
}
