import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The store's persisted history in its namespace, as the SQLite backend keeps it
/// (docs/formats/sqlite.md, "History"): table `strata_history` (one row per transaction: its
/// number, author and the encoded `StoreHistoryTransaction`), written inside the save's own
/// transaction so it commits with the data or not at all; `history_last` and `history_horizon` in
/// `strata_metadata` hold the newest number recorded and the newest deleted. Numbers are handed
/// out under the store's write lock, so every process's saves share one sequence.
enum PostgresHistory {
    static let table = "strata_history"

    /// Creates the table when missing, under the namespace's lock (two processes may open at once).
    static func createTable(_ connection: PostgresConnection, namespace: String) throws {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(namespace)])
            try connection.execute("CREATE TABLE IF NOT EXISTS \"\(table)\" (\"token\" bigint PRIMARY KEY, \"author\" bytea, \"transaction\" bytea NOT NULL)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private static func counter(_ connection: PostgresConnection, _ name: String) throws -> Int64 {
        let rows = try connection.query("SELECT \"value\" FROM \"\(PostgresCatalog.metadataTable)\" WHERE \"key\" = convert_from($1, 'UTF8')", [.text(name)])
        guard rows.count > 0, case .text(let text) = rows.value(0, 0) else { return 0 }
        return Int64(text) ?? 0
    }

    private static func setCounter(_ connection: PostgresConnection, _ name: String, _ value: Int64) throws {
        try connection.query(
            "INSERT INTO \"\(PostgresCatalog.metadataTable)\" (\"key\", \"value\") VALUES (convert_from($1, 'UTF8'), convert_from($2, 'UTF8')) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"",
            [.text(name), .text(String(value))])
    }

    /// The value of `history_last` as read (`.null`: no transaction yet, 0).
    ///
    /// - Throws: `corruptStore` when it is not a number.
    static func counterValue(_ value: SQLValue) throws -> Int64 {
        switch value {
        case .null: return 0
        case .text(let text): if let number = Int64(text) { return number }
        default: break
        }
        throw counterDamaged
    }

    private static var counterDamaged: StrataError {
        StrataError(.corruptStore, "The history counter 'history_last' of the store is not a number.")
    }

    /// Appends the transaction `recorder` built, numbered after the newest (inside the save).
    static func append(_ connection: PostgresConnection, _ recorder: HistoryRecorder, author: String?) throws {
        guard !recorder.isEmpty else { return }
        // The counter moves and answers its new value in one round trip (the save holds the
        // store's write lock, so no other save numbers in between).
        let rows = try connection.query(
            "INSERT INTO \"\(PostgresCatalog.metadataTable)\" AS m (\"key\", \"value\") VALUES ('history_last', '1') ON CONFLICT (\"key\") DO UPDATE SET \"value\" = (m.\"value\"::bigint + 1)::text RETURNING \"value\"")
        guard rows.count == 1 else { throw counterDamaged }
        let number = try counterValue(rows.value(0, 0))
        let transaction = recorder.transaction(number, author: author)
        try connection.query(
            "INSERT INTO \"\(table)\" (\"token\", \"author\", \"transaction\") VALUES ($1, $2, $3)",
            [.integer(number), author.map { .text($0) } ?? .null, .blob(Data(try transaction.encoded()))])
    }

    /// Writes `transaction` (numbered one past `history_last`, which the save read under the
    /// write lock) and moves the counter, then `notify` and `COMMIT`: one pipeline, one round trip.
    /// Without a transaction (the save changed nothing), only `notify` and `COMMIT`.
    static func commit(_ connection: PostgresConnection, _ transaction: StoreHistoryTransaction?, notify: String) throws {
        guard let transaction else { return try connection.commit(notify: notify) }
        let number = transaction.token.transaction
        let row = PostgresParameters([.integer(number), transaction.author.map { .text($0) } ?? .null, .blob(Data(try transaction.encoded()))])
        let counter = PostgresParameters([.text(String(number))])
        // NOTIFY first: a first `.prepared` would have its (empty) result kept for the caller.
        try connection.sendQueue(then: [
            .command(notify),
            .prepared(name: try connection.statement(insertSQL, types: row.types), parameters: row),
            .prepared(name: try connection.statement(counterSQL, types: counter.types), parameters: counter),
            .command("COMMIT"),
        ])
    }

    private static let insertSQL = "INSERT INTO \"\(table)\" (\"token\", \"author\", \"transaction\") VALUES ($1, $2, $3)"
    private static let counterSQL = "INSERT INTO \"\(PostgresCatalog.metadataTable)\" (\"key\", \"value\") VALUES ('history_last', convert_from($1, 'UTF8')) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\""

    /// The transactions `query` selects (inside a read transaction).
    static func fetch(_ connection: PostgresConnection, _ query: HistoryQuery, storeIdentifier: String, namespace: String, store: String) throws -> [StoreHistoryTransaction] {
        let first = try query.firstTransaction(storeIdentifier: storeIdentifier, horizon: try counter(connection, "history_horizon"))
        guard try hasTable(connection, namespace: namespace) else { return [] }
        var sql = "SELECT \"transaction\" FROM \"\(table)\" WHERE \"token\" >= $1"
        var parameters: [SQLValue] = [.integer(first)]
        if let through = query.through {
            sql += " AND \"token\" <= $2"
            parameters.append(.integer(through.transaction))
        }
        sql += " ORDER BY \"token\""
        let rows = try connection.query(sql, parameters)
        var result: [StoreHistoryTransaction] = []
        for row in 0..<rows.count {
            if let limit = query.limit, result.count >= limit { break }
            guard case .blob(let bytes) = rows.value(row, 0) else { continue }
            let transaction = try StoreHistoryTransaction(decoding: bytes, file: store)
            if query.admits(transaction) { result.append(transaction) }
        }
        return result
    }

    /// Removes the transactions through `number` and moves the horizon (inside a transaction).
    static func delete(_ connection: PostgresConnection, through number: Int64, namespace: String) throws {
        if try hasTable(connection, namespace: namespace) { try connection.query("DELETE FROM \"\(table)\" WHERE \"token\" <= $1", [.integer(number)]) }
        let horizon = try counter(connection, "history_horizon")
        try setCounter(connection, "history_horizon", max(horizon, min(number, try counter(connection, "history_last"))))
    }

    private static func hasTable(_ connection: PostgresConnection, namespace: String) throws -> Bool {
        try connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = convert_from($1, 'UTF8') AND tablename = convert_from($2, 'UTF8')",
            [.text(namespace), .text(table)]).integer(0, 0) == 1
    }
}
