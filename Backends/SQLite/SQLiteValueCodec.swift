import Foundation
import Strata

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

    /// Whether two column values are the same bytes: text compares by UTF-8 (Swift's `==` would call
    /// canonically equivalent spellings equal, and skipping such a write would lose the new
    /// spelling), reals by bit pattern. Used to leave unchanged columns out of an UPDATE, so a
    /// false "different" only costs a write; a false "same" never happens.
    static func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
        case (.text(let x), .text(let y)): return sameBytes(x, y)
        case (.blob(let x), .blob(let y)): return x == y
        default: return false
        }
    }

    /// Whether two strings hold the same UTF-8 bytes: one `memcmp` over their contiguous storage
    /// (the generic `elementsEqual` over `String.UTF8View` cost about 2,700 instructions per save).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        guard a.utf8.count == b.utf8.count else { return false }
        return a.withUTF8 { x in b.withUTF8 { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
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
