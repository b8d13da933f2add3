import CSQLite
import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The store's persisted history in the database file: table `strata_history` (one row per
/// transaction: its number, author and the encoded `StoreHistoryTransaction`), written by the
/// save's own transaction so it commits with the data or not at all. A transaction's number is the
/// table's `INTEGER PRIMARY KEY`: one more than the newest row, or than `history_horizon` in
/// `strata_metadata` (the newest number `deleteHistory` removed, the floor that keeps numbers from
/// being reused once every row is deleted), whichever is larger. A save writes only its row: it
/// reads the newest number once, and again only after another connection committed
/// (`SQLiteStore.Writer.history`). Stores written before kept the newest number in
/// `history_last`, which always equals that maximum; it is read as a third floor, never written.
/// The table is made when a store that records opens (a file that never recorded has none).
enum SQLiteHistory {
    static let table = "strata_history"

    static func createTable(_ db: SQLiteConnection) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS \"\(table)\" (\"token\" INTEGER PRIMARY KEY, \"author\" TEXT, \"transaction\" BLOB NOT NULL)")
    }

    private static func counter(_ db: SQLiteConnection, _ name: String) throws -> Int64 {
        let text = try db.prepare("SELECT \"value\" FROM \"\(SQLiteFormat.metadataTable)\" WHERE \"key\" = ?").rows([.text(name)]) { $0.text(0) }.first
        return text.flatMap { Int64($0) } ?? 0
    }

    private static func setCounter(_ db: SQLiteConnection, _ name: String, _ value: Int64) throws {
        try db.prepare("INSERT OR REPLACE INTO \"\(SQLiteFormat.metadataTable)\" (\"key\", \"value\") VALUES (?, ?)").run([.text(name), .text(String(value))])
    }

    /// Appends the transaction `recorder` built, numbered after the newest (inside the save): after
    /// `last` when the writer knows it, else after the newest in the file (`newest`). Returns the
    /// number, or `nil` when there is nothing to record.
    static func append(_ db: SQLiteConnection, _ recorder: HistoryRecorder, author: String?, last: Int64?) throws -> Int64? {
        guard !recorder.isEmpty else { return nil }
        return try append(db, author: author, last: last) { number, write in try recorder.withEncodedTransaction(number, author: author, write) }
    }

    /// Appends a transaction numbered as above, its bytes those `encode` hands to its argument for
    /// the number. Returns the number.
    static func append(
        _ db: SQLiteConnection, author: String?, last: Int64?,
        _ encode: (Int64, (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Int64 {
        let number: Int64
        if let last {
            number = last + 1
        } else {
            // Not known from this writer's own last save: read, and mark the format (first time only).
            try raiseFormat(db)
            number = try newest(db) + 1
        }
        // The statement by its slot, the JSON bound in place (no copy into `Data`): SQLite copies
        // nothing either, the bytes live until the step is done and the binding is cleared.
        let statement = try db.prepare(.historyInsert)
        try statement.bind(.integer(number), at: 1)
        try statement.bind(author.map { .text($0) } ?? .null, at: 2)
        try encode(number) { bytes in
            try statement.bindStatic(bytes, at: 3)
            defer { statement.reset() }
            while try statement.step() {}
        }
        return number
    }

    /// Raises `PRAGMA user_version` to `SQLiteFormat.historyVersion` if it is below, inside the save
    /// (the header is written with the transaction): an older Strata, which numbers from the stale
    /// `history_last`, then refuses the store (`newerFormat`). Called whenever the writer does not
    /// know that its own last save recorded; a write only the first time.
    private static func raiseFormat(_ db: SQLiteConnection) throws {
        let version = try db.prepare("PRAGMA user_version").rows([]) { $0.int64(0) }.first ?? 0
        if version < SQLiteFormat.historyVersion { try db.execute("PRAGMA user_version = \(SQLiteFormat.historyVersion)") }
    }

    /// The newest number recorded or deleted: the largest of the newest row, the deletion horizon
    /// and an older Strata's `history_last`. One statement.
    static func newest(_ db: SQLiteConnection) throws -> Int64 {
        let sql = """
            SELECT MAX(COALESCE((SELECT MAX("token") FROM "\(table)"), 0),
                COALESCE((SELECT CAST("value" AS INTEGER) FROM "\(SQLiteFormat.metadataTable)" WHERE "key" = 'history_horizon'), 0),
                COALESCE((SELECT CAST("value" AS INTEGER) FROM "\(SQLiteFormat.metadataTable)" WHERE "key" = 'history_last'), 0))
            """
        return try db.prepare(sql).rows([]) { $0.int64(0) }.first ?? 0
    }

    /// The transactions `query` selects (inside a read transaction).
    static func fetch(_ db: SQLiteConnection, _ query: HistoryQuery, storeIdentifier: String) throws -> [StoreHistoryTransaction] {
        let first = try query.firstTransaction(storeIdentifier: storeIdentifier, horizon: try counter(db, "history_horizon"))
        guard try hasTable(db) else { return [] }
        var sql = "SELECT \"transaction\" FROM \"\(table)\" WHERE \"token\" >= ?"
        var parameters: [SQLValue] = [.integer(first)]
        if let through = query.through {
            sql += " AND \"token\" <= ?"
            parameters.append(.integer(through.transaction))
        }
        sql += " ORDER BY \"token\""
        var result: [StoreHistoryTransaction] = []
        let statement = try db.prepare(sql)
        try statement.bind(parameters)
        defer { statement.reset() }
        while try statement.step() {
            if let limit = query.limit, result.count >= limit { break }
            let transaction = try StoreHistoryTransaction(decoding: statement.blob(0), file: db.path)
            if query.admits(transaction) { result.append(transaction) }
        }
        return result
    }

    /// Removes the transactions through `number` and moves the horizon (inside a transaction).
    static func delete(_ db: SQLiteConnection, through number: Int64) throws {
        let top = try hasTable(db) ? try newest(db) : try counter(db, "history_horizon")
        if try hasTable(db) { try db.prepare("DELETE FROM \"\(table)\" WHERE \"token\" <= ?").run([.integer(number)]) }
        let horizon = try counter(db, "history_horizon")
        try setCounter(db, "history_horizon", max(horizon, min(number, top)))
    }

    private static func hasTable(_ db: SQLiteConnection) throws -> Bool {
        try db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?").rows([.text(table)]) { $0.int64(0) }.first == 1
    }
}
