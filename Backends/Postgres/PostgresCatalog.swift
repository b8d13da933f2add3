import Foundation
import StrataSQLSupport
import Strata

/// The PostgreSQL-only part of a store's layout: its namespace, the metadata table that makes the
/// namespace a Strata store, and the checks made before touching one (docs/formats/postgres.md).
///
/// A store is one PostgreSQL schema (namespace): `strata_metadata` and the entity tables of the
/// shared SQL mapping. Every connection of the store sets `search_path` to the namespace, so the
/// mapping's unqualified table names land there. Creating a store runs in one transaction under a
/// transaction-scoped advisory lock on the namespace, so two processes opening a new store at once
/// create it once (the second sees the first's tables).
enum PostgresCatalog {
    /// The newest layout version this code reads (metadata key `format`). A store is created at 1;
    /// opening it for writing with history on raises it to `historyVersion`.
    static let version = 3
    /// The version of a store whose history is numbered by the sequence `strata_history_token`
    /// (3; `PostgresHistory`), its rows possibly holding old values beside the transaction (2:
    /// `strata_history."prior"`, `PostgresStore+SingleUpdate.swift`). An older Strata would number
    /// from the counter `history_last`, which this version no longer moves, or not read the old
    /// values: it refuses such a store (`newerFormat`).
    static let historyVersion = 3
    static let metadataTable = "strata_metadata"
    /// The largest deleted key per entity table (`"table"` bytea, `"last"` bigint), kept by a
    /// statement-level delete trigger on every entity table, so a key is never handed out twice
    /// even after the highest record is deleted (`PostgresDialect.lastKeyQuery`).
    static let keysTable = "strata_keys"

    /// What an existing store holds.
    struct Opened: Equatable {
        /// The store identifier, fixed at creation.
        let storeIdentifier: String
        /// Whether a writer must rewrite the schema record (`RecordedSchema.check(opening:)`).
        let outcome: RecordedSchema.OpeningOutcome
    }

    /// `"name"` with embedded quotes doubled.
    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Points the connection at the namespace: unqualified names are the store's tables, and the
    /// write lock of its saves is the namespace's (`beginWrite`).
    static func use(_ namespace: String, on connection: PostgresConnection) throws {
        try connection.execute("SET search_path TO \(quote(namespace))")
        connection.writeLockKey = try connection.query("SELECT hashtextextended(convert_from($1, 'UTF8'), 0)", [.text(namespace)]).integer(0, 0) ?? 0
    }

    /// Runs `body` in a transaction holding the store's write lock in shared mode: it waits while a
    /// save or a migration holds the lock, then reads what that one committed; readers of it do not
    /// wait for each other. `PostgresStore.recordedSchema` reads through it, so whoever decides from
    /// the record how to open the store (the model layer's migrations, the tools, the torture's
    /// check) takes the version a migration in progress leaves, also when the process migrating was
    /// killed after sending its COMMIT (the server still runs it, holding the lock until it is
    /// done). Opening a store for reading does not wait: readers read the old version meanwhile.
    static func underSharedLock<T>(_ connection: PostgresConnection, namespace: String, _ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock_shared(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(namespace)])
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Opens the store in `namespace` for writing: creates the namespace, the metadata and the
    /// tables (`ddl`, the shared mapping's statements) if it holds no store yet; otherwise checks it.
    static func openOrCreate(_ connection: PostgresConnection, namespace: String, schema: Schema, ddl: [String], entityTables: [String] = [], file: String) throws -> Opened {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(namespace)])
            let opened: Opened
            if let existing = try inspect(connection, namespace: namespace, schema: schema, file: file) {
                opened = existing
            } else {
                try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quote(namespace))")
                try use(namespace, on: connection)
                try connection.execute("CREATE TABLE \(quote(metadataTable)) (\"key\" text COLLATE \"C\" PRIMARY KEY, \"value\" text NOT NULL)")
                for statement in ddl { try connection.execute(statement) }
                try createKeyTracking(connection, entityTables: entityTables)
                let identifier = UUID().uuidString
                try write(connection, [("format", "1"), ("store_identifier", identifier)] + records(schema))
                opened = Opened(storeIdentifier: identifier, outcome: .current)
            }
            if opened.outcome == .rewriteRecord { try write(connection, records(schema)) }
            try connection.execute("COMMIT")
            return opened
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Checks the store in `namespace` without writing; nil if the namespace holds no store (missing,
    /// or empty). A namespace with other tables but no metadata is someone else's: `corruptStore`.
    static func inspect(_ connection: PostgresConnection, namespace: String, schema: Schema, file: String) throws -> Opened? {
        guard let (identifier, recorded) = try read(connection, namespace: namespace, file: file) else { return nil }
        return Opened(storeIdentifier: identifier, outcome: try recorded.check(opening: schema, file: file))
    }

    /// The store identifier and recorded schema of the store in `namespace`, without a schema to
    /// check against and without writing; nil if the namespace holds no store.
    static func read(_ connection: PostgresConnection, namespace: String, file: String) throws -> (String, RecordedSchema)? {
        let tables = try connection.query(
            "SELECT count(*), count(*) FILTER (WHERE c.relname = 'strata_metadata') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = convert_from($1, 'UTF8') AND c.relkind IN ('r', 'p')",
            [.text(namespace)])
        let all = tables.integer(0, 0) ?? 0, metadata = tables.integer(0, 1) ?? 0
        if all == 0 { return nil }
        guard metadata == 1 else {
            throw StrataError(.corruptStore, "The PostgreSQL schema \(namespace) holds someone else's tables, not a Strata store; it was left untouched. Use another namespace.", file: file)
        }
        try use(namespace, on: connection)
        let rows = try connection.query("SELECT \"key\", \"value\" FROM \(quote(metadataTable))")
        var values: [String: String] = [:]
        for row in 0..<rows.count {
            if case .text(let key) = rows.value(row, 0), case .text(let value) = rows.value(row, 1) { values[key] = value }
        }
        guard let format = values["format"].flatMap(Int.init), let identifier = values["store_identifier"], let record = values["schema_record"] else {
            throw StrataError(.corruptStore, "The store's metadata table is incomplete (format, store_identifier or schema_record missing).", file: file)
        }
        guard format <= version else {
            throw StrataError.newerFormat(format, readsUpTo: version, file: file)
        }
        return (identifier, try RecordedSchema(decoding: Array(record.utf8), file: file))
    }

    /// `strata_keys` and the delete trigger on every entity table that records the largest key deleted.
    private static func createKeyTracking(_ connection: PostgresConnection, entityTables: [String]) throws {
        try connection.execute("""
            CREATE TABLE \(quote(keysTable)) ("table" bytea PRIMARY KEY, "last" bigint NOT NULL);
            CREATE FUNCTION strata_note_deleted_keys() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                -- The namespace by the trigger's table, not by name: a store's namespace may be renamed (a migration's swap).
                EXECUTE format('INSERT INTO %1$I.\(quote(keysTable)) ("table", "last") SELECT convert_to($1, ''UTF8''), max("_pk") FROM deleted HAVING count(*) > 0
                    ON CONFLICT ("table") DO UPDATE SET "last" = GREATEST(%1$I.\(quote(keysTable))."last", EXCLUDED."last")', TG_TABLE_SCHEMA) USING TG_TABLE_NAME;
                RETURN NULL;
            END $body$
            """)
        for table in entityTables { try trackKeys(connection, table: table) }
    }

    /// The delete trigger that keeps `strata_keys` on one entity table (a migration that creates a
    /// table puts it there too).
    static func trackKeys(_ connection: PostgresConnection, table: String) throws {
        try connection.execute("CREATE TRIGGER strata_keys AFTER DELETE ON \(quote(table)) REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION strata_note_deleted_keys()")
    }

    /// Records `schema` as the store's (a migration's last step, inside its transaction).
    static func record(_ connection: PostgresConnection, schema: Schema) throws {
        try write(connection, records(schema))
    }

    /// The metadata rows that record `schema`.
    private static func records(_ schema: Schema) throws -> [(String, String)] {
        [("schema_record", String(decoding: RecordedSchema(schema).encoded(), as: UTF8.self)),
         ("schema", String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)),
         ("fingerprint", schema.fingerprint)]
    }

    /// Inserts or replaces metadata rows.
    private static func write(_ connection: PostgresConnection, _ rows: [(String, String)]) throws {
        try connection.run(
            "INSERT INTO \(quote(metadataTable)) (\"key\", \"value\") VALUES (convert_from($1, 'UTF8'), convert_from($2, 'UTF8')) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"",
            rows: rows.map { [.text($0.0), .text($0.1)] })
    }
}
