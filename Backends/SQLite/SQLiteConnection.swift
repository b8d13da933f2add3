import CSQLite
import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe by itself: the store hands each connection to one thread at a time (the writer
/// lock or the reader pool), which is what SQLite's multi-thread mode requires.
final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    let path: String
    // One thread at a time uses a connection (above) and no access to these caches overlaps
    // another: `@exclusivity(unchecked)` drops the run-time check on every statement lookup.
    // Under STRATA_INTERNAL_CHECKS (debug builds) the same properties are declared checked.
    #if STRATA_INTERNAL_CHECKS
    private var cache: [String: SQLiteStatement] = [:]
    /// Statements of fixed texts (`SQLText`), by slot: found without hashing their SQL.
    private var slots: [SQLiteStatement?] = []
    #else
    @exclusivity(unchecked) private var cache: [String: SQLiteStatement] = [:]
    /// Statements of fixed texts (`SQLText`), by slot: found without hashing their SQL.
    @exclusivity(unchecked) private var slots: [SQLiteStatement?] = []
    #endif

    /// SQLite's memory statistics off, once per process before the first connection: they take a
    /// global mutex on every allocation (limit: Benchmarks/Thresholds/sqlite-fetch-by-id.txt) and Strata never
    /// reads them (docs/formats/sqlite.md, "Process-wide settings").
    private static let configured: Int32 = strata_sqlite_disable_memory_statistics()

    /// Opens `path`; `create` decides whether a missing file is created.
    init(path: String, create: Bool, readOnly: Bool = false, busyTimeout: Duration) throws {
        _ = Self.configured
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        let rc = sqlite3_open_v2(path, &db, flags, SQLiteChecksumVFS.registered)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw StrataError(rc == SQLITE_CANTOPEN ? .ioFailure : .corruptStore, "Cannot open the SQLite database: \(message).", file: path, native: .init(.sqlite, code: Int(rc), message: message))
        }
        self.handle = db
        self.path = path
        let ms = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(db, Int32(clamping: ms))
        sqlite3_extended_result_codes(db, 1)
        try registerFunctions()
    }

    deinit {
        cache.removeAll()
        slots.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, reused across calls; reset and cleared before it is returned.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try compile(sql)
        cache[sql] = statement
        return statement
    }

    /// The statement of a fixed text, found by its slot: an array index, where the text cache
    /// hashes the whole SQL text (limits: Benchmarks/Thresholds/sqlite-*.txt).
    func prepare(_ text: SQLText) throws -> SQLiteStatement {
        if text.slot < slots.count, let statement = slots[text.slot] {
            statement.reset()
            return statement
        }
        let statement = try compile(text.sql)
        if text.slot >= slots.count { slots.append(contentsOf: repeatElement(nil, count: text.slot + 1 - slots.count)) }
        slots[text.slot] = statement
        return statement
    }

    /// The statement of a fixed text for a caller that binds every parameter again (or has none):
    /// reset only if a step left it running, bindings kept. `prepare(_:)` resets and clears on
    /// every call, for BEGIN, COMMIT and the SELECT by key (limit: Benchmarks/Thresholds/sqlite-update-one.txt).
    func reuse(_ text: SQLText) throws -> SQLiteStatement {
        if text.slot < slots.count, let statement = slots[text.slot] {
            if sqlite3_stmt_busy(statement.handle) != 0 { statement.resetKeepingBindings() }
            return statement
        }
        return try prepare(text)
    }

    private func compile(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql) }
        return SQLiteStatement(stmt, connection: self, sql: sql)
    }

    /// Sets the reserved bytes per page of a database not yet written (`SQLITE_FCNTL_RESERVE_BYTES`);
    /// a negative count only reads it. Returns the count in effect.
    func reserveBytes(_ count: Int32) -> Int32 {
        var value = count
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_RESERVE_BYTES, &value)
        if count < 0 { return value }
        var now: Int32 = -1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_RESERVE_BYTES, &now)
        return now
    }

    /// The pager's data version (`SQLITE_FCNTL_DATA_VERSION`): it changes whenever the file
    /// changes — a commit of this connection, or one of another connection found when this one
    /// starts a transaction. Reliable inside a transaction and right after this connection's
    /// commit; a C call, no statement.
    var dataVersion: Int64 {
        var version: UInt32 = 0
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return Int64(version)
    }

    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `strata_lower(text)`: Unicode lowercasing as Swift does it, so case-insensitive search matches
    /// the core's evaluator byte for byte; and the core's string comparators as collations.
    private func registerFunctions() throws {
        let rc = sqlite3_create_function_v2(handle, "strata_lower", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, values in
            guard count == 1, let value = values?[0], sqlite3_value_type(value) != SQLITE_NULL else {
                sqlite3_result_null(context)
                return
            }
            let length = Int(sqlite3_value_bytes(value))
            let text = sqlite3_value_text(value).map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
            let lowered = Array(text.lowercased().utf8)
            lowered.withUnsafeBufferPointer { buffer in
                sqlite3_result_blob(context, buffer.baseAddress, Int32(buffer.count), strata_sqlite_transient())
            }
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "cannot register strata_lower", sql: nil) }
        try SQLiteCollations.register(on: handle)
    }
}

/// A failure reported by SQLite, before it is mapped onto a `StrataError`.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    let sql: String?

    var primary: Int32 { code & 0xff }
    var description: String { "SQLite error \(code): \(message)" + (sql.map { " in \($0)" } ?? "") }

    /// The core's error for this failure, the extended result code kept as its `native` error
    /// (constraint failures are mapped with context by the caller).
    func strataError(file: String) -> StrataError {
        mapped(file: file).with(native: .init(.sqlite, code: Int(code), message: message))
    }

    private func mapped(file: String) -> StrataError {
        if code == SQLiteChecksumVFS.ioerrData {
            return StrataError(.corruptStore, "A page of the SQLite file fails its checksum (\(message)): the file is damaged. Restore the store from a backup.", file: file)
        }
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StrataError(.storeLocked, "The database is locked by another writer and stayed locked past the busy timeout; retry later.", file: file)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return StrataError(.corruptStore, "The file is not a readable SQLite database (\(message)).", file: file)
        case SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM:
            return StrataError(.ioFailure, "SQLite could not read or write the file (\(message)).", file: file)
        default:
            return StrataError(.ioFailure, "SQLite failed: \(message).", file: file)
        }
    }
}
