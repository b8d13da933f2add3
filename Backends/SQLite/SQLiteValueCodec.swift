import Foundation
@_spi(StrataEngine) import Strata

/// Converts attribute values to SQLite column values and back, exactly.
///
/// Doubles and dates go to a REAL column; SQLite turns NaN into NULL and stores an integral REAL as
/// an integer (so −0 reads back as +0), so those two cases also write the IEEE bit pattern to the
/// `__bits` companion column, which wins when present. Dates are seconds since 2001-01-01 (Foundation's
/// reference date), the value `Date` holds, so no arithmetic can round them.
enum SQLiteValueCodec {
    /// The main column's value and the companion `__bits` value.
    static func encode(_ value: Value) -> (SQLValue, SQLValue) {
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

    private static func encode(double d: Double) -> (SQLValue, SQLValue) {
        if d.isNaN { return (.null, .integer(Int64(bitPattern: d.bitPattern))) }
        if d == 0 && d.sign == .minus { return (.real(0), .integer(Int64(bitPattern: d.bitPattern))) }
        return (.real(d), .null)
    }

    /// The value a predicate compares a column with (no companion: NaN is handled by the caller).
    static func comparable(_ value: Value) -> SQLValue { encode(value).0 }

    /// Reads a value of `type` from `column`, which the caller found not NULL. Doubles and dates
    /// with a `__bits` companion are read by `SQLiteRowLayout`, which consults the companion.
    static func decodePresent(_ s: SQLiteStatement, _ column: Int32, type: AttributeType, file: @autoclosure () -> String) throws -> Value {
        switch type {
        case .bool: return .bool(s.int64(column) != 0)
        case .int: return .int(s.int64(column))
        case .double: return .double(s.double(column))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: s.double(column)))
        case .string: return .string(s.text(column))
        case .url:
            let text = s.text(column)
            guard let url = URL(string: text) else {
                throw StrataError(.corruptStore, "A URL column holds '\(text)', which is not a URL.", file: file())
            }
            return .url(url)
        case .data: return .data(s.blob(column))
        case .uuid:
            let bytes = s.blob(column)
            guard bytes.count == 16 else { throw StrataError(.corruptStore, "A UUID column holds \(bytes.count) bytes, not 16.", file: file()) }
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        }
    }
}
