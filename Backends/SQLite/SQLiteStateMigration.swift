import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// A whole staged migration path — several schema changes and the code of custom stages between
/// them — in one SQLite transaction (`StateMigratable`): a crash or an error at any point leaves
/// the file at the old version, and no save of another connection lands between the read and the
/// write (the transaction holds SQLite's write lock from `BEGIN IMMEDIATE` to `COMMIT`).
///
/// Inside the transaction it reads every record of the source schema (keys, links and the
/// `sqlite_sequence` key counters) into the core's engine, lets `rewrite` run the stages there,
/// then drops the old tables, creates the destination's, writes every record with its key, sets
/// the key counters, creates the indexes (a unique one over duplicates is
/// `uniqueConstraintViolation` naming two records) and records the destination schema.
///
/// Cost: the store is read and written once and held in memory once, where a single lightweight
/// stage (`SQLiteMigration`) alters the tables in place. The history table is kept as it is, as
/// by every other migration.
enum SQLiteStateMigration {
    private static let q = SQLiteMapping.quote

    /// Migrates the file at `path` from `source` to `destination`: its records become
    /// `rewrite(records)`.
    ///
    /// - Throws: `ioFailure` for a missing file, `storeLocked` while another connection writes,
    ///   `schemaMismatch` when the file is not at `source` or `rewrite`'s result is not at
    ///   `destination`, and `rewrite`'s errors — the file unchanged after any of them.
    static func run(path: String, busyTimeout: Duration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try SQLiteMigration.inTransaction(path: path, busyTimeout: busyTimeout, from: source) { db, identifier in
            let old = try SQLiteMapping(schema: source), new = try SQLiteMapping(schema: destination)
            // Read and rewrite everything first: every refusal comes before the first write.
            let next = try rewrite(try load(db, old, storeIdentifier: identifier))
            try next.requireSchema(destination)
            try write(next, db, replacing: old, with: new)
            try SQLiteFormat.writeRecord(db, schema: destination, inTransaction: true)
        }
    }

    /// Every record of the mapping's schema, with the stored key counters (`sqlite_sequence`).
    private static func load(_ db: SQLiteConnection, _ mapping: SQLiteMapping, storeIdentifier: String) throws -> StoreState {
        let records = SQLiteRecords(db: db, mapping: mapping, layouts: mapping.tables.map(SQLiteRowLayout.init), storeIdentifier: storeIdentifier)
        var counters: [String: Int64] = [:]
        if try db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").rows([], { $0.int64(0) }).first == 1 {
            for (name, seq) in try db.prepare("SELECT name, seq FROM sqlite_sequence").rows([], { ($0.text(0), $0.int64(1)) }) {
                counters[name] = max(counters[name] ?? 0, seq)
            }
        }
        return try SQLMigration.load(mapping, storeIdentifier: storeIdentifier, snapshots: { entity in
            try records.snapshots(try db.prepare(mapping.texts[entity.index].select), entity, parameters: [])
        }, lastKey: { counters[$0] })
    }

    /// Replaces the tables of `old` with those of `new`, holding `state`.
    private static func write(_ state: StoreState, _ db: SQLiteConnection, replacing old: SQLiteMapping, with new: SQLiteMapping) throws {
        // Dropping a table drops its indexes and its `sqlite_sequence` row.
        for name in old.tables.map(\.name) + old.joins.map(\.name) { try db.execute("DROP TABLE \(q(name))") }
        let statements = new.ddl()
        for statement in statements where statement.hasPrefix("CREATE TABLE") { try db.execute(statement) }
        try SQLMigration.writeRows(state, new, SQLiteDialect.self) { sql, rows in
            guard !rows.isEmpty else { return }
            let insert = try db.prepare(sql)
            for row in rows { try insert.run(row) }
        }
        for entity in new.schema.entities {
            let name = new.tables[entity.index].name
            try db.prepare("DELETE FROM sqlite_sequence WHERE name = ?").run([.text(name)])
            let next = state.nextPrimaryKey(entity)
            if next > 1 { try db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run([.text(name), .integer(next - 1)]) }
        }
        for statement in statements where !statement.hasPrefix("CREATE TABLE") {
            try SQLiteMigration.createIndex(statement, db: db, mapping: new, storeIdentifier: state.storeIdentifier)
        }
    }
}
