/// The storable kinds of attribute value.
///
/// Every backend must round-trip each of these exactly; the conformance suite checks edge values of
/// each (Int64 extremes, Double −0 / ±infinity / NaN, Unicode and NUL in strings, sub-second dates…).
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Bool`.
    case bool
    /// A 64-bit signed integer (`Int64`).
    case int
    /// An IEEE-754 double, including −0, ±infinity and NaN.
    case double
    /// A Unicode string; may hold any scalar, NUL included.
    case string
    /// A point in time (`Date`), kept to its full `TimeInterval` precision.
    case date
    /// Raw bytes of any length.
    case data
    /// A `UUID`.
    case uuid
    /// A `URL`, kept as its absolute string.
    case url
}
