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
            // Added by format 2 (one-record updates, `PostgresStore+SingleUpdate.swift`): an older
            // Strata would read those rows' placeholders as old values, so it is refused the store.
            try connection.execute("ALTER TABLE \"\(table)\" ADD COLUMN IF NOT EXISTS \"prior\" bytea[]")
            try pruneCounterEagerly(connection)
            try connection.execute("UPDATE \"\(PostgresCatalog.metadataTable)\" SET \"value\" = '\(PostgresCatalog.historyVersion)' WHERE \"key\" = 'format' AND \"value\"::int < \(PostgresCatalog.historyVersion)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Sets `strata_metadata`'s fillfactor to 10 when it is not, so that the server prunes the
    /// counter's dead row versions on the next read after each save instead of when the page is
    /// nearly full.
    ///
    /// Why: every save that records writes a new version of the counter row (`history_last`,
    /// a HOT update on the same page). With the default fillfactor PostgreSQL prunes a page only
    /// when less than a tenth of it is free, so each save walked a growing chain of dead versions
    /// twice: the counter's `ON CONFLICT` check follows the row's chain, and the schema guard's
    /// scan of the metadata table checks every version on the page. At fillfactor 10 a page with
    /// less than 90% free is pruned on access whenever it holds a dead version, which the server
    /// counts as about 22,000 fewer instructions a one-record update (docs/history.md, "Cost").
    /// A storage parameter, not a format change: a store with it reads and writes as before, and
    /// saves without history never update the table. Set once (`ALTER TABLE` rewrites the
    /// catalog row and makes every session plan its statements on the table anew).
    private static func pruneCounterEagerly(_ connection: PostgresConnection) throws {
        let metadata = PostgresCatalog.quote(PostgresCatalog.metadataTable)
        let set = try connection.query("SELECT count(*) FROM pg_class WHERE oid = '\(metadata)'::regclass AND reloptions @> ARRAY['fillfactor=10']")
        if set.integer(0, 0) == 0 { try connection.execute("ALTER TABLE \(metadata) SET (fillfactor = 10)") }
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

    /// The transactions `query` selects (inside a read transaction).
    static func fetch(_ connection: PostgresConnection, _ query: HistoryQuery, storeIdentifier: String, namespace: String, store: String) throws -> [StoreHistoryTransaction] {
        let first = try query.firstTransaction(storeIdentifier: storeIdentifier, horizon: try counter(connection, "history_horizon"))
        let columns = try tableColumns(connection, namespace: namespace)
        guard !columns.isEmpty else { return [] }
        var sql = "SELECT \"transaction\", \"token\", \(columns.contains("prior") ? "\"prior\"" : "NULL::bytea[]") FROM \"\(table)\" WHERE \"token\" >= $1"
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
            var transaction = try StoreHistoryTransaction(decoding: bytes, file: store)
            if let prior = rows.raw(row, 2) { transaction = try completed(transaction, number: rows.integer(row, 1) ?? 0, prior: prior, store: store) }
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

    /// The columns of the history table, none when it is missing; one without `prior` is a table
    /// that an earlier build made and no writer of this version opened with history on since.
    private static func tableColumns(_ connection: PostgresConnection, namespace: String) throws -> Set<String> {
        let rows = try connection.query(
            "SELECT a.attname::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = convert_from($1, 'UTF8') AND c.relname = convert_from($2, 'UTF8') AND a.attnum > 0 AND NOT a.attisdropped",
            [.text(namespace), .text(table)])
        var columns: Set<String> = []
        for row in 0..<rows.count { if case .text(let name) = rows.value(row, 0) { columns.insert(name) } }
        return columns
    }

    /// The transaction a one-record update recorded (`PostgresStore+SingleUpdate.swift`) as the
    /// save's own recorder would have built it: the client wrote one update change listing every
    /// attribute with its new value and a placeholder of the attribute's type as old value, and
    /// number 0; the server kept the old values in `prior` (PostgreSQL's `bytea[]`, binary) and the
    /// number in `token`. Only the attributes whose old value differs are kept.
    ///
    /// - Throws: `corruptStore` when the row does not hold what that save writes.
    static func completed(_ transaction: StoreHistoryTransaction, number: Int64, prior: Data, store: String) throws -> StoreHistoryTransaction {
        let elements = try priorElements(prior, store: store)
        guard transaction.changes.count == 1, transaction.changes[0].kind == .update, transaction.changes[0].attributes.count == elements.count else {
            throw damaged("Its old values do not match its change", number: number, store: store)
        }
        var change = transaction.changes[0]
        var attributes: [HistoryAttributeChange] = []
        for (i, attribute) in change.attributes.enumerated() {
            let old = try priorValue(elements[i], like: attribute.old, store: store)
            if old != attribute.new { attributes.append(HistoryAttributeChange(attribute.name, old: old, new: attribute.new)) }
        }
        change.attributes = attributes
        var result = transaction
        result.token = StoreHistoryToken(storeIdentifier: transaction.token.storeIdentifier, transaction: number)
        result.changes = [change]
        return result
    }

    /// An old value of `prior`, read as the type of `placeholder`: a double or date by its IEEE
    /// bits (`float8send`, or its `__bits` companion as `int8send`: the same eight bytes), an
    /// integer or bool by `int8send`, the other types as stored; each through
    /// `PostgresRecords.decode`, as a result row's columns are.
    static func priorValue(_ element: Data?, like placeholder: Value, store: String) throws -> Value {
        guard let element else { return .null }
        func integer() throws -> Int64 {
            guard element.count == 8 else { throw StrataError(.corruptStore, "A history row's old value has \(element.count) bytes where 8 were written.", file: store) }
            return element.reduce(0) { $0 << 8 | Int64($1) }
        }
        guard let type = placeholder.type else { throw StrataError(.corruptStore, "A history row's change has no type for an old value.", file: store) }
        switch type {
        case .bool, .int: return try PostgresRecords.decode(.integer(try integer()), bits: .null, type: type, store: store)
        case .double, .date: return try PostgresRecords.decode(.null, bits: .integer(try integer()), type: type, store: store)
        case .string, .url, .data, .uuid: return try PostgresRecords.decode(.blob(element), bits: .null, type: type, store: store)
        }
    }

    /// The elements of a one-dimensional `bytea[]` in PostgreSQL's binary array form (`array_send`:
    /// dimensions, a NULL flag, the element type, per dimension its length and lower bound, then
    /// per element its length, -1 for NULL, and its bytes).
    static func priorElements(_ array: Data, store: String) throws -> [Data?] {
        let bytes = [UInt8](array)
        var at = 0
        // Whether `n` more bytes are there.
        func need(_ n: Int) throws {
            guard at + n <= bytes.count else { throw StrataError(.corruptStore, "A history row's old values end early.", file: store) }
        }
        func int32() throws -> Int32 {
            try need(4)
            defer { at += 4 }
            return Int32(bitPattern: UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]))
        }
        let dimensions = try int32()
        _ = try int32()  // whether a NULL is among them
        _ = try int32()  // the element type
        guard dimensions == 0 || dimensions == 1 else { throw StrataError(.corruptStore, "A history row's old values are an array of \(dimensions) dimensions.", file: store) }
        let count = dimensions == 0 ? 0 : Int(try int32())
        if dimensions == 1 { _ = try int32() }  // the lower bound
        var elements: [Data?] = []
        elements.reserveCapacity(max(count, 0))
        for _ in 0..<max(count, 0) {
            let length = Int(try int32())
            if length < 0 { elements.append(nil); continue }
            try need(length)
            elements.append(Data(bytes[at..<at + length]))
            at += length
        }
        return elements
    }

    private static func damaged(_ what: String, number: Int64, store: String) -> StrataError {
        StrataError(.corruptStore, "History transaction \(number) is damaged: \(what).", file: store)
    }

    private static func hasTable(_ connection: PostgresConnection, namespace: String) throws -> Bool {
        try connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = convert_from($1, 'UTF8') AND tablename = convert_from($2, 'UTF8')",
            [.text(namespace), .text(table)]).integer(0, 0) == 1
    }
}
