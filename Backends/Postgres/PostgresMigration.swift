import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Migrates a PostgreSQL store in place, in one transaction that holds the store's write lock (the
/// advisory lock every save takes): PostgreSQL's DDL is transactional, so an error, a lost
/// connection or a kill -9 at any point leaves the store at the old version, and a save of another
/// connection waits for the migration and then finds the new schema (and is refused with
/// `schemaMismatch`, never applied to the wrong tables). Keys, the key counters (`strata_keys`)
/// and the store identifier are kept (docs/formats/postgres.md, "Migrations").
///
/// Two ways. **In place** when the shared layer says the tables can take the changes
/// (`SQLMigration.altersInPlace`): `ALTER TABLE … ADD COLUMN … DEFAULT` (O(1) since PostgreSQL
/// 11: the default is kept in the catalog, not written into the rows), `RENAME COLUMN`, an `UPDATE`
/// of the rows holding NULL, unique constraints and indexes dropped and created again. **Rewrite**
/// otherwise, and for a whole staged path with custom stages (`StateMigratable`): every record is
/// read into the core's engine, the stages run there, then the old tables are dropped, the new ones
/// created and filled with the records under their keys, the key counters set and the indexes and
/// foreign keys created.
enum PostgresMigration {
    private static let q = PostgresDialect.quote

    /// Applies one schema change.
    ///
    /// - Throws: `ioFailure` when the namespace holds no store, `schemaMismatch` when it is not at
    ///   the migration's source, `uniqueConstraintViolation` naming two records that collide under
    ///   a new constraint, `storeUnavailable` — the store unchanged after any of them.
    static func run(_ configuration: PostgresStoreConfiguration, _ migration: SchemaMigration) throws {
        try inTransaction(configuration, from: migration.source) { connection, identifier in
            if SQLMigration.altersInPlace(migration) {
                try alterInPlace(connection, migration, storeIdentifier: identifier)
            } else {
                try rewrite(connection, configuration, from: migration.source, to: migration.destination, storeIdentifier: identifier) { try $0.migrated(by: migration) }
            }
        }
    }

    /// Replaces the store's records with `rewrite(records)` at `destination`.
    ///
    /// - Throws: as `run(_:_:)`, and `rewrite`'s errors — the store unchanged.
    static func run(_ configuration: PostgresStoreConfiguration, from source: Schema, to destination: Schema, rewrite body: (StoreState) throws -> StoreState) throws {
        try inTransaction(configuration, from: source) { connection, identifier in
            try rewrite(connection, configuration, from: source, to: destination, storeIdentifier: identifier, body)
        }
    }

    /// Runs `body` in one transaction under the store's write lock, once the store is found at
    /// `source`, then records `body`'s destination schema (the caller's) and commits. `body` gets
    /// the connection (its `search_path` the namespace) and the store identifier.
    private static func inTransaction(_ configuration: PostgresStoreConfiguration, from source: Schema, _ body: (PostgresConnection, String) throws -> Void) throws {
        let name = configuration.name
        let connection = try PostgresConnection(settings: configuration.settings)
        do {
            try connection.execute("BEGIN")
            do {
                // The lock of every save and of creating the store (`PostgresCatalog`): taken before
                // the store is read, so nothing commits between the read and the migration's commit.
                try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(configuration.namespace)])
                guard let (identifier, recorded) = try PostgresCatalog.read(connection, namespace: configuration.namespace, file: name) else {
                    throw StrataError(.ioFailure, "There is no PostgreSQL store in this namespace to migrate.", file: name)
                }
                guard recorded.fingerprint == source.fingerprint else {
                    throw recorded.mismatch(opening: source, file: name, reason: "The migration starts at another schema than the store holds")
                }
                try body(connection, identifier)
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch let error as PostgresError {
            throw error.strataError(store: name)
        }
    }

    /// Additive changes on the existing tables (`SQLMigration.alterInPlace`), then the destination
    /// recorded.
    private static func alterInPlace(_ connection: PostgresConnection, _ migration: SchemaMigration, storeIdentifier: String) throws {
        let new = try SQLMapping(schema: migration.destination, dialect: PostgresDialect.self)
        try SQLMigration.alterInPlace(migration, PostgresDialect.self, defaultClause: defaultClause, run: { sql, parameters in
            if parameters.isEmpty { try connection.execute(sql) } else { try connection.query(sql, parameters) }
        }, createIndex: { try createIndex($0, connection, new, storeIdentifier: storeIdentifier) })
        try PostgresCatalog.record(connection, schema: migration.destination)
    }

    /// The `DEFAULT` clause of an added column, as a literal (DDL takes no parameters). Strings
    /// and bytes are `bytea` (`PostgresDialect.columnType`).
    static func defaultClause(_ value: SQLValue) -> String {
        func bytes(_ b: some Sequence<UInt8>) -> String { " DEFAULT '\\x\(b.map { String(format: "%02x", $0) }.joined())'::bytea" }
        switch value {
        case .null: return ""
        case .integer(let i): return " DEFAULT \(i)"
        case .real(let d):
            if d.isInfinite { return d > 0 ? " DEFAULT 'Infinity'::double precision" : " DEFAULT '-Infinity'::double precision" }
            return " DEFAULT '\(d)'::double precision"
        case .text(let s): return bytes(s.utf8)
        case .blob(let b): return bytes(b)
        }
    }

    /// Reads every record at `source`, rewrites them, and replaces the tables with the result's.
    private static func rewrite(
        _ connection: PostgresConnection, _ configuration: PostgresStoreConfiguration, from source: Schema, to destination: Schema,
        storeIdentifier: String, _ body: (StoreState) throws -> StoreState
    ) throws {
        let old = try SQLMapping(schema: source, dialect: PostgresDialect.self)
        let new = try SQLMapping(schema: destination, dialect: PostgresDialect.self)
        // The old tables' string columns read back as text, as a store opened at `source` reads them.
        try PostgresConnectionPool(settings: configuration.settings, namespace: configuration.namespace, store: configuration.name, mapping: old).learnTextColumns(connection)
        let records = PostgresRecords(connection: connection, mapping: old, storeIdentifier: storeIdentifier, store: configuration.name)
        // Read and rewrite everything first: every refusal comes before the first write.
        let loaded = try SQLMigration.load(old, storeIdentifier: storeIdentifier, snapshots: { entity in
            try records.snapshots(try connection.query(old.texts[entity.index].select), entity)
        }, lastKey: { table in
            let last = PostgresDialect.lastKeyQuery(table: table)
            return try connection.query(last.sql, last.parameters).integer(0, 0)
        })
        let state = try body(loaded)
        try state.requireSchema(destination)
        // Dropping a table drops its indexes, its trigger and the foreign keys that point at it.
        for name in old.tables.map(\.name) + old.joins.map(\.name) { try connection.execute("DROP TABLE \(q(name)) CASCADE") }
        let statements = new.ddl(PostgresDialect.self)
        for statement in statements where statement.hasPrefix("CREATE TABLE") { try connection.execute(statement) }
        try SQLMigration.writeRows(state, new, PostgresDialect.self) { sql, rows in try connection.run(sql, rows: rows) }
        try connection.execute("DELETE FROM \(q(PostgresCatalog.keysTable))")
        for entity in new.schema.entities {
            let table = new.tables[entity.index].name
            try PostgresCatalog.trackKeys(connection, table: table)
            let last = state.nextPrimaryKey(entity) - 1
            if last > 0 { try connection.query("INSERT INTO \(q(PostgresCatalog.keysTable)) (\"table\", \"last\") VALUES ($1, $2)", [.text(table), .integer(last)]) }
        }
        // The rows' deferred foreign key checks run now: PostgreSQL creates no index on a table
        // with such checks pending.
        try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for statement in statements where !statement.hasPrefix("CREATE TABLE") {
            try createIndex(statement, connection, new, storeIdentifier: storeIdentifier)
        }
        try PostgresCatalog.record(connection, schema: destination)
    }

    /// Runs one statement of `mapping.ddl` after the tables (an index, a foreign key); a unique
    /// index over duplicates is `uniqueConstraintViolation` naming two colliding records.
    private static func createIndex(_ statement: String, _ connection: PostgresConnection, _ mapping: SQLMapping, storeIdentifier: String) throws {
        do {
            try connection.attempt { try connection.execute(statement) }
        } catch let error as PostgresError where error.sqlstate == "23505" {
            guard let (entity, properties, sql) = SQLMigration.uniqueCollision(statement, mapping, PostgresDialect.self) else { throw error }
            let rows = try connection.query(sql)
            let ids = rows.count == 0 ? [] : [rows.integer(0, 0), rows.integer(0, 1)].compactMap { $0 }.map {
                PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, primaryKey: $0)
            }
            throw SaveRules.migrationUniqueViolation(entity, properties: properties, records: ids)
        }
    }
}
