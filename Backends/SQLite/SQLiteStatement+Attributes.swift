import CSQLite
import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

extension SQLiteStatement {
    /// Whether the row holds attribute `value` exactly as a write would store it: the main column
    /// at `column` and, when the table has one (`companion`), the `__bits` column after it
    /// (`SQLValueCodec.encode`). An update compares every attribute this way to write only the
    /// changed columns.
    ///
    /// Why not `encode` then `holds(_:at:)`: that wraps each value in a `SQLValue` and copies it
    /// twice per attribute (limit: Benchmarks/Thresholds/sqlite-update-one.txt); strings and
    /// integers, the common columns, are compared here straight from the `Value`. Everything else
    /// takes the general path, so the answer is the same.
    func holds(attribute value: Value, at column: Int32, companion: Bool) -> Bool {
        switch value {
        case .string(var s):
            guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { return false }
            return s.withUTF8 { bytes in
                let count = Int(sqlite3_column_bytes(handle, column))
                guard count == bytes.count else { return false }
                guard count > 0, let stored = sqlite3_column_text(handle, column), let base = bytes.baseAddress else { return true }
                return memcmp(stored, base, count) == 0
            } && (!companion || sqlite3_column_type(handle, column + 1) == SQLITE_NULL)
        case .int(let i):
            return sqlite3_column_type(handle, column) == SQLITE_INTEGER && sqlite3_column_int64(handle, column) == i
                && (!companion || sqlite3_column_type(handle, column + 1) == SQLITE_NULL)
        case .double(let d) where Self.isPlain(d):
            return holds(real: d, at: column, companion: companion)
        case .date(let date) where Self.isPlain(date.timeIntervalSinceReferenceDate):
            return holds(real: date.timeIntervalSinceReferenceDate, at: column, companion: companion)
        default:
            let (main, bits) = SQLValueCodec.encode(value)
            return holds(main, at: column) && (!companion || holds(bits, at: column + 1))
        }
    }

    /// Whether the codec writes `d` as a plain REAL with a NULL companion: neither NaN nor −0.
    private static func isPlain(_ d: Double) -> Bool { !d.isNaN && !(d == 0 && d.sign == .minus) }

    /// A double the codec writes as a plain REAL with a NULL companion (not NaN, not −0).
    private func holds(real d: Double, at column: Int32, companion: Bool) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_FLOAT && sqlite3_column_double(handle, column).bitPattern == d.bitPattern
            && (!companion || sqlite3_column_type(handle, column + 1) == SQLITE_NULL)
    }
}
