import CSQLite
import Foundation
import StrataSQLSupport

/// Reads the columns of the row a statement is on, asking for a column's storage class only when
/// the value read leaves NULL open.
///
/// `sqlite3_column_int64` and `sqlite3_column_double` give 0 for NULL, and `sqlite3_column_text`
/// gives no pointer for NULL (or when SQLite ran out of memory converting the value). So a read that
/// gives anything else settles the question, and `sqlite3_column_type`, a call per column, is asked
/// only after a 0 or a missing pointer (limit: Benchmarks/Thresholds/sqlite-scan.txt). Neither numeric read changes the column's
/// value (only a text or blob read of a number converts it, after which SQLite leaves the storage
/// class undefined), and a text read of NULL converts nothing, so the later type is the stored one.
struct SQLiteColumnReads {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The integer, or `nil` for NULL.
    func int64OrNil(_ column: Int32) -> Int64? {
        let v = sqlite3_column_int64(handle, column)
        if v == 0 && isNull(column) { return nil }
        return v
    }

    /// A double or date from its REAL column and, when that reads 0 (NULL for NaN, or maybe −0),
    /// its `__bits` companion in the next column, which wins when set; `nil` when both are NULL.
    func real(_ column: Int32) -> Double? {
        let d = sqlite3_column_double(handle, column)
        if d != 0 { return d }
        if !isNull(column + 1) { return Double(bitPattern: UInt64(bitPattern: sqlite3_column_int64(handle, column + 1))) }
        return isNull(column) ? nil : d
    }

    /// The text, or `nil` for NULL. Bytes that are not valid UTF-8 (SQLite does not check what a
    /// TEXT column holds) are repaired with U+FFFD, as `String(decoding:as:)` does, never trusted.
    ///
    /// - Throws: `SQLITE_NOMEM` when SQLite could not produce the text of a value that is not NULL.
    func text(_ column: Int32, sql: String) throws -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else {
            if isNull(column) { return nil }
            throw SQLiteError(code: SQLITE_NOMEM, message: "out of memory reading column \(column) as text", sql: sql)
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
