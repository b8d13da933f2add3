import Foundation
@_spi(StrataEngine) import Strata

/// Converts attribute values to the column values every SQL dialect stores, exactly (the reading
/// back is each backend's, from its own rows: `SQLiteValueCodec.decodePresent`).
///
/// Doubles and dates go to a REAL column; SQLite turns NaN into NULL and stores an integral REAL as
/// an integer (so −0 reads back as +0), and a database that keeps NaN natively would let it equal
/// itself and sort wrongly, so for every dialect those two cases also write the IEEE bit pattern to the
/// `__bits` companion column, which wins when present. Dates are seconds since 2001-01-01 (Foundation's
/// reference date), the value `Date` holds, so no arithmetic can round them.
@usableFromInline package enum SQLValueCodec {
    /// The main column's value and the companion `__bits` value.
    @inlinable
    package static func encode(_ value: Value) -> (SQLValue, SQLValue) {
        switch value {
        case .null: return (.null, .null)
        case .bool(let b): return (.integer(b ? 1 : 0), .null)
        case .int(let i): return (.integer(i), .null)
        case .double(let d): return encode(double: d)
        case .date(let d): return encode(double: d.timeIntervalSinceReferenceDate)
        case .string(let s): return (.text(s), .null)
        case .url(let u): return (.text(u.absoluteString), .null)
        case .data(let d): return (.blob(d), .null)
        case .uuid(let u): return (.blob(withUnsafeBytes(of: u.uuid) { Data($0) }), .null)
        }
    }

    /// A double's main value and companion (NaN: NULL + bits; −0: 0 + bits; else the value + NULL).
    @inlinable
    package static func encode(double d: Double) -> (SQLValue, SQLValue) {
        if d.isNaN { return (.null, .integer(Int64(bitPattern: d.bitPattern))) }
        if d == 0 && d.sign == .minus { return (.real(0), .integer(Int64(bitPattern: d.bitPattern))) }
        return (.real(d), .null)
    }

    /// The value a predicate compares a column with (no companion: NaN is handled by the caller).
    @usableFromInline package static func comparable(_ value: Value) -> SQLValue { encode(value).0 }
}
