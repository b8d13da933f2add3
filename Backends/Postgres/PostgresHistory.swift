import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The store's persisted history in its namespace, as the SQLite backend keeps it
/// (docs/formats/sqlite.md, "History"): table `strata_history` (one row per transaction: its
/// number, author and the encoded `StoreHistoryTransaction`), written inside the save's own
/// transaction so it commits with the data or not at all; `history_horizon` in `strata_metadata`
/// holds the newest number deleted. Numbers come from the sequence `strata_history_token` (format
/// 3), taken under the store's write lock, so every process's saves share one sequence and numbers
/// rise in commit order. A sequence is not transactional: a save cut off after taking its number
/// (a killed client, a lost connection, a server crash) leaves that number unused, so numbers may
/// skip; a save refused with an error takes none, and none is ever reused (docs/history.md,
/// "Numbers").
enum PostgresHistory {
    static let table = "strata_history"
    /// The sequence that numbers transactions (format 3).
    static let sequence = "strata_history_token"

    /// Creates the table when missing, under the namespace's lock (two processes may open at once).
    static func createTable(_ connection: PostgresConnection, namespace: String) throws {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(namespace)])
            try connection.execute("CREATE TABLE IF NOT EXISTS \"\(table)\" (\"token\" bigint PRIMARY KEY, \"author\" bytea, \"transaction\" bytea NOT NULL)")
            // Added by format 2 (one-record updates, `PostgresStore+SingleUpdate.swift`): an older
            // Strata would read those rows' placeholders as old values, so it is refused the store.
            try connection.execute("ALTER TABLE \"\(table)\" ADD COLUMN IF NOT EXISTS \"prior\" bytea[]")
            try createSequence(connection)
            try connection.execute("UPDATE \"\(PostgresCatalog.metadataTable)\" SET \"value\" = '\(PostgresCatalog.historyVersion)' WHERE \"key\" = 'format' AND \"value\"::int < \(PostgresCatalog.historyVersion)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Creates the numbering sequence when missing (format 3), starting after every number a
    /// format 1 or 2 writer handed out: the newest of its counter `history_last`, the horizon and
    /// the table's newest row, so no number is reused. The counter row goes: nothing reads it now.
    ///
    /// Why a sequence, not the counter row format 2 moved on every save: a gap-free number costs the
    /// server a row write (or an index scan) that its executor starts, runs and finishes on every
    /// save, about 55,000 instructions of a one-record update's 170,000 for history; `nextval`
    /// reads no row (docs/history.md, "Numbers").
    private static func createSequence(_ connection: PostgresConnection) throws {
        let exists = try connection.query("SELECT count(*) FROM pg_class WHERE oid = to_regclass(convert_from($1, 'UTF8'))", [.text(PostgresCatalog.quote(sequence))])
        guard exists.integer(0, 0) == 0 else { return }
        let floor = max(try counter(connection, "history_last"), try counter(connection, "history_horizon"),
                        try connection.query("SELECT coalesce(max(\"token\"), 0) FROM \"\(table)\"").integer(0, 0) ?? 0)
        try connection.execute("CREATE SEQUENCE \(PostgresCatalog.quote(sequence)) AS bigint MINVALUE 1")
        if floor > 0 { try connection.query("SELECT setval(\(nextNumberArgument), $1)", [.integer(floor)]) }
        try connection.execute("DELETE FROM \"\(PostgresCatalog.metadataTable)\" WHERE \"key\" = 'history_last'")
    }

    /// The sequence as `nextval` and `setval` take it (found through the namespace's search path).
    static let nextNumberArgument = "'\(PostgresCatalog.quote(sequence))'"

    /// The newest number handed out, 0 when none: the sequence's, or on a store no writer with
    /// history on opened since format 2 (no sequence yet; `deleteHistory` may still run there) the
    /// counter `history_last`.
    private static func lastNumber(_ connection: PostgresConnection) throws -> Int64 {
        let rows = try connection.query("SELECT coalesce(pg_sequence_last_value(to_regclass(convert_from($1, 'UTF8'))), 0)", [.text(PostgresCatalog.quote(sequence))])
        return max(rows.integer(0, 0) ?? 0, try counter(connection, "history_last"))
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

    private static var numberMissing: StrataError {
        StrataError(.corruptStore, "The history sequence '\(sequence)' of the store answered no number.")
    }

    /// Appends the transaction `recorder` built, numbered after the newest (inside the save).
    static func append(_ connection: PostgresConnection, _ recorder: HistoryRecorder, author: String?) throws {
        guard !recorder.isEmpty else { return }
        // The number is taken last, after every statement of the save that can be refused, so a
        // save that fails with an error takes none (the save holds the store's write lock, so no
        // other save numbers in between and numbers rise in commit order).
        let rows = try connection.query("SELECT nextval(\(nextNumberArgument))")
        guard rows.count == 1, let number = rows.integer(0, 0) else { throw numberMissing }
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
        try setCounter(connection, "history_horizon", max(horizon, min(number, try lastNumber(connection))))
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

    /// The values a one-record update writes (`parameters`: per attribute column its value and, for
    /// a double or date, its `__bits` companion, as `singleUpdate` binds them), as the one-record
    /// statement's array of old values holds a row's (`singleUpdateRecordingStatements`) and in
    /// the bytes `array_send` gives for it, so the server compares the two in one comparison: per
    /// attribute the companion's 8 bytes (`int8send`) when set, else a double's IEEE bits
    /// (`float8send`), an integer's or bool's 8 bytes (`int8send`), the other types' bytes as
    /// stored; NULL as NULL.
    ///
    /// Laid out as `array_send` does (`priorElements` reads it): dimensions, a NULL flag, the
    /// element type, length and lower bound, then per element its length (-1 for NULL) and bytes;
    /// sized first and written into one buffer (appending element by element cost six times the
    /// instructions).
    static func writtenValues(_ parameters: [SQLValue], of table: SQLMapping.Table) -> Data {
        let count = table.attributeColumns.count
        // Per attribute its element: the bytes' length (-1 for NULL) and what they are.
        enum Element { case null, eight(UInt64), text(String), blob(Data) }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var size = count == 0 ? 12 : 20
        var at = 0
        for i in 0..<count {
            let value = parameters[at]
            at += 1
            var bits = SQLValue.null
            if table.bitsColumns[i] != nil {
                bits = parameters[at]
                at += 1
            }
            let element: Element
            switch (bits, value) {
            case (.integer(let b), _): element = .eight(UInt64(bitPattern: b))
            case (_, .null): element = .null
            case (_, .integer(let v)): element = .eight(UInt64(bitPattern: v))
            case (_, .real(let d)): element = .eight(d.bitPattern)
            case (_, .text(let text)): element = .text(text)
            case (_, .blob(let data)): element = .blob(data)
            }
            switch element {
            case .null: size += 4
            case .eight: size += 12
            case .text(let text): size += 4 + text.utf8.count
            case .blob(let data): size += 4 + data.count
            }
            elements.append(element)
        }
        var data = Data(count: size)
        data.withUnsafeMutableBytes { buffer in
            var offset = 0
            func int32(_ v: Int32) {
                buffer.storeBytes(of: v.bigEndian, toByteOffset: offset, as: Int32.self)
                offset += 4
            }
            func copy(_ bytes: UnsafeRawBufferPointer) {
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                offset += bytes.count
            }
            // Dimensions (none for an empty array), whether a NULL is among the elements, the
            // element type; per dimension its length and lower bound.
            int32(count == 0 ? 0 : 1)
            int32(elements.contains { if case .null = $0 { true } else { false } } ? 1 : 0)
            int32(Int32(PostgresParameters.bytea))
            guard count > 0 else { return }
            int32(Int32(count))
            int32(1)
            for element in elements {
                switch element {
                case .null: int32(-1)
                case .eight(let v):
                    int32(8)
                    buffer.storeBytes(of: v.bigEndian, toByteOffset: offset, as: UInt64.self)
                    offset += 8
                case .text(var text):
                    int32(Int32(text.utf8.count))
                    text.withUTF8 { if $0.count > 0 { copy(UnsafeRawBufferPointer($0)) } }
                case .blob(let bytes):
                    int32(Int32(bytes.count))
                    bytes.withUnsafeBytes { if $0.count > 0 { copy($0) } }
                }
            }
        }
        return data
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
