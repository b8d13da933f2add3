import CSQLite
import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// A prepared statement: bind values, step through rows, read columns.
final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String
    /// The bytes of the text and blob parameters, bound static from here (`SQLiteParameterBytes`).
    /// One thread at a time uses a statement, its connection's, and no access overlaps another.
    #if STRATA_INTERNAL_CHECKS
    private var lent = SQLiteParameterBytes()
    #else
    @exclusivity(unchecked) private var lent = SQLiteParameterBytes()
    #endif

    init(_ handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets without clearing the bindings, for a statement whose every parameter is bound again
    /// before each step (a save's row statements): clearing would be redundant work per row
    /// (limit: Benchmarks/Thresholds/sqlite-insert.txt).
    func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    /// Binds SQL parameters from position 1.
    func bind(_ values: [SQLValue]) throws {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    /// Binds `values` after a leading integer (a key), without building a new array.
    func bind(_ first: Int64, then values: [SQLValue]) throws {
        try bind(.integer(first), at: 1)
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 2)) }
    }

    func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let s):
            // Native strings lend their UTF-8 bytes, copied into the parameter's own buffer and bound
            // static; the explicit length keeps any NUL. Others, and long values, SQLite copies.
            if let held = s.utf8.withContiguousStorageIfAvailable({ lent.bind(UnsafeRawBufferPointer($0), at: index, text: true, in: handle) }), let held {
                rc = held
            } else {
                rc = sqlite3_bind_text(handle, index, s, Int32(s.utf8.count), strata_sqlite_transient())
            }
        case .blob(let d):
            if let held = d.withUnsafeBytes({ lent.bind($0, at: index, text: false, in: handle) }) {
                rc = held
            } else {
                rc = d.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), strata_sqlite_transient()) }
            }
        }
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql) }
    }

    /// Binds a blob SQLite does not copy: `bytes` must stay valid until the statement is reset and
    /// its bindings cleared (`reset()`), which the caller does before the bytes go.
    func bindStatic(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        let rc = sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql) }
    }

    /// Advances; `true` while a row is available.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: sqlite3_extended_errcode(connection.handle), message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLValue] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs a query and collects one value per row.
    func rows<T>(_ values: [SQLValue] = [], _ read: (SQLiteStatement) throws -> T) throws -> [T] {
        try bind(values)
        var result: [T] = []
        while try step() { result.append(try read(self)) }
        sqlite3_reset(handle)
        return result
    }

    /// The column as SQLite holds it.
    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_TEXT: return .text(text(column))
        case SQLITE_BLOB: return .blob(blob(column))
        default: return .null
        }
    }

    /// Whether the column holds exactly `value`, compared where SQLite keeps it: the same storage
    /// class, integers equal, reals by bit pattern, text and blobs byte for byte. Reading the column
    /// into a `SQLValue` first (`value(_:)`) builds a `String` or `Data` per text or blob column;
    /// an update compares every stored column this way to write only the changed ones. A false
    /// "different" (text that is not valid UTF-8) only costs a write; a false "same" cannot happen.
    func holds(_ value: SQLValue, at column: Int32) -> Bool {
        let kind = sqlite3_column_type(handle, column)
        switch value {
        case .null: return kind == SQLITE_NULL
        case .integer(let v): return kind == SQLITE_INTEGER && sqlite3_column_int64(handle, column) == v
        case .real(let v): return kind == SQLITE_FLOAT && sqlite3_column_double(handle, column).bitPattern == v.bitPattern
        case .text(var s):
            guard kind == SQLITE_TEXT else { return false }
            return s.withUTF8 { sameBytes($0, column, text: true) }
        case .blob(let d):
            guard kind == SQLITE_BLOB else { return false }
            return d.withUnsafeBytes { sameBytes($0.bindMemory(to: UInt8.self), column, text: false) }
        }
    }

    /// Whether the text or blob in `column` is exactly `bytes`: one `memcmp`.
    private func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ column: Int32, text: Bool) -> Bool {
        let pointer = text ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count == bytes.count else { return false }
        guard count > 0, let pointer, let base = bytes.baseAddress else { return true }
        return memcmp(pointer, base, count) == 0
    }

    /// The number of columns a row of this statement has.
    var columnCount: Int32 { sqlite3_column_count(handle) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// The column's storage class (`SQLITE_NULL`, `SQLITE_INTEGER`, …), asked once where several
    /// reads depend on it.
    func type(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(_ column: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
    func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}
