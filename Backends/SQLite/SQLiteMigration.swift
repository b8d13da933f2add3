import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Applies a `SchemaMigration` to a SQLite file in one transaction (`BEGIN IMMEDIATE … COMMIT`):
/// a crash or an error at any point leaves the file at the old schema (SQLite's own atomicity).
///
/// Two ways, chosen from the change list. **In place** when every change is additive or about
/// declarations — added attributes (`ALTER TABLE … ADD COLUMN … DEFAULT`, O(1): SQLite stores the
/// default in the schema, not in the rows), renamed attributes (`RENAME COLUMN`), optional ↔
/// required (an `UPDATE` of the rows holding NULL), defaults, unique constraints and indexes (the
/// entity's indexes dropped and created again). **Rebuild** otherwise: every table is renamed
/// aside, the new tables created, rows copied by one `INSERT … SELECT` per table (keys, key
/// counters and links kept), the old tables dropped, the indexes created.
struct SQLiteMigration {
    let db: SQLiteConnection
    let migration: SchemaMigration
    let old: SQLiteMapping
    let new: SQLiteMapping
    let storeIdentifier: String
    static let aside = "__strata_old"

    /// Migrates the file at `path`.
    ///
    /// - Throws: `ioFailure` for a missing file, `storeLocked` while another connection writes,
    ///   `schemaMismatch` when the file is not at the migration's source, `uniqueConstraintViolation`
    ///   naming two records that collide under a new constraint — the file unchanged.
    static func run(path: String, busyTimeout: Duration, _ migration: SchemaMigration) throws {
        try inTransaction(path: path, busyTimeout: busyTimeout, from: migration.source) { db, identifier in
            let step = SQLiteMigration(
                db: db, migration: migration, old: try SQLiteMapping(schema: migration.source),
                new: try SQLiteMapping(schema: migration.destination), storeIdentifier: identifier)
            if SQLMigration.altersInPlace(migration) { try step.alterInPlace() } else { try step.rebuild() }
            try SQLiteFormat.writeRecord(db, schema: migration.destination, inTransaction: true)
        }
    }

    /// Runs `body` on the file at `path` inside `BEGIN IMMEDIATE … COMMIT` (foreign keys off,
    /// legacy `ALTER TABLE`), once the file is found to hold a store at `source`; `body` gets the
    /// connection and the store identifier. Any error rolls the transaction back.
    ///
    /// - Throws: `ioFailure` for a missing file or one without a store, `storeLocked` while another
    ///   connection writes, `schemaMismatch` when the store is not at `source`, `body`'s errors.
    static func inTransaction(path: String, busyTimeout: Duration, from source: Schema, _ body: (SQLiteConnection, String) throws -> Void) throws {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil, size > 0 else {
            throw StrataError(.ioFailure, "There is no SQLite store at this path to migrate.", file: path)
        }
        do {
            let db = try SQLiteConnection(path: path, create: false, readOnly: false, busyTimeout: busyTimeout)
            try db.execute("PRAGMA foreign_keys = OFF; PRAGMA legacy_alter_table = ON")
            try db.execute("BEGIN IMMEDIATE")
            do {
                guard let (identifier, recorded) = try SQLiteFormat.read(db) else {
                    throw StrataError(.ioFailure, "The SQLite file holds no store to migrate.", file: path)
                }
                guard recorded.fingerprint == source.fingerprint else {
                    throw recorded.mismatch(opening: source, file: path, reason: "The migration starts at another schema than the store holds")
                }
                try body(db, identifier)
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        } catch let error as SQLiteError {
            throw error.strataError(file: path)
        }
    }

    private func q(_ name: String) -> String { SQLiteMapping.quote(name) }

    /// Additive changes on the existing tables (`SQLMigration.alterInPlace`).
    func alterInPlace() throws {
        try SQLMigration.alterInPlace(migration, SQLiteDialect.self, defaultClause: Self.defaultClause, run: { sql, parameters in
            if parameters.isEmpty { try db.execute(sql) } else { try db.prepare(sql).run(parameters) }
        }, createIndex: createIndex)
    }

    /// The `DEFAULT` clause of an added column, as a literal (DDL takes no parameters).
    static func defaultClause(_ value: SQLValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let i): return " DEFAULT \(i)"
        case .real(let d):
            if d.isInfinite { return d > 0 ? " DEFAULT 9e999" : " DEFAULT -9e999" }
            return " DEFAULT \(d)"
        case .text(let s): return " DEFAULT '\(s.replacingOccurrences(of: "'", with: "''"))'"
        case .blob(let b): return " DEFAULT X'\(b.map { String(format: "%02x", $0) }.joined())'"
        }
    }

    /// Every table renamed aside, the new ones created and filled, the old ones dropped.
    func rebuild() throws {
        let indexes = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").rows { $0.text(0) }
        for index in indexes { try db.execute("DROP INDEX \(q(index))") }
        let oldTables = old.tables.map(\.name) + old.joins.map(\.name)
        for name in oldTables { try db.execute("ALTER TABLE \(q(name)) RENAME TO \(q(name + Self.aside))") }
        let statements = new.ddl()
        for statement in statements where statement.hasPrefix("CREATE TABLE") { try db.execute(statement) }
        for (i, mapping) in migration.entities.enumerated() {
            guard let s = mapping.source else { continue }
            try copyEntity(i, from: s, mapping)
        }
        for (j, join) in new.joins.enumerated() { try copyJoin(j, join) }
        for name in oldTables { try db.execute("DROP TABLE \(q(name + Self.aside))") }
        for statement in statements where !statement.hasPrefix("CREATE TABLE") { try createIndex(statement) }
    }

    private func copyEntity(_ i: Int, from s: Int, _ mapping: SchemaMigration.EntityMapping) throws {
        let table = new.tables[i], before = old.tables[s]
        var columns = ["_pk"], selects = ["o.\(q("_pk"))"], values: [SQLValue] = []
        for (j, a) in mapping.attributes.enumerated() {
            let bits = table.bitsColumns[j]
            columns.append(table.attributeColumns[j])
            if let bits { columns.append(bits) }
            switch a {
            case .copy(let k):
                selects.append("o.\(q(before.attributeColumns[k]))")
                if bits != nil { selects.append(before.bitsColumns[k].map { "o.\(q($0))" } ?? "NULL") }
            case .copyFillingNil(let k, let fill):
                let (main, companion) = SQLValueCodec.encode(fill)
                let isNil = "o.\(q(before.attributeColumns[k])) IS NULL" + (before.bitsColumns[k].map { " AND o.\(q($0)) IS NULL" } ?? "")
                selects.append("CASE WHEN \(isNil) THEN ? ELSE o.\(q(before.attributeColumns[k])) END")
                values.append(main)
                if bits != nil {
                    selects.append("CASE WHEN \(isNil) THEN ? ELSE \(before.bitsColumns[k].map { "o.\(q($0))" } ?? "NULL") END")
                    values.append(companion)
                }
            case .constant(let v):
                let (main, companion) = SQLValueCodec.encode(v)
                selects.append("?")
                values.append(main)
                if bits != nil {
                    selects.append("?")
                    values.append(companion)
                }
            }
        }
        for (r, storage) in table.relationships.enumerated() {
            guard case .column(let column, let order) = storage else { continue }
            columns.append(column)
            var source: (String, String?)?
            if let sr = mapping.relationships[r], case .column(let oc, let oorder) = before.relationships[sr] { source = (oc, oorder) }
            selects.append(source.map { "o.\(q($0.0))" } ?? "NULL")
            if let order {
                columns.append(order)
                selects.append(source.map { "o.\(q($0.1 ?? "_pk"))" } ?? "NULL")
            }
        }
        try db.prepare("INSERT INTO \(q(table.name)) (\(columns.map(q).joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) FROM \(q(before.name + Self.aside)) AS o").run(values)
        try db.prepare("DELETE FROM sqlite_sequence WHERE name = ?").run([.text(table.name)])
        try db.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT ?, seq FROM sqlite_sequence WHERE name = ?").run([.text(table.name), .text(before.name + Self.aside)])
    }

    private func copyJoin(_ index: Int, _ join: SQLiteMapping.JoinTable) throws {
        // The relationship whose own column is the join's left one, and where it came from.
        for (i, table) in new.tables.enumerated() {
            for (r, storage) in table.relationships.enumerated() {
                guard case .join(index, let mine, _, let order) = storage, mine == join.left else { continue }
                guard let s = migration.entities[i].source, let sr = migration.entities[i].relationships[r],
                      case .join(let oi, let omine, let oother, let oorder) = old.tables[s].relationships[sr]
                else { return }
                // The inverse side's order column in the old join.
                let oldJoin = old.joins[oi]
                let inverseOrder = omine == oldJoin.left ? oldJoin.rightOrder : oldJoin.leftOrder
                var columns = [join.left, join.right], selects = ["o.\(q(omine))", "o.\(q(oother))"]
                if order != nil, let o = join.leftOrder {
                    columns.append(o)
                    selects.append("o.\(q(oorder ?? oother))")
                }
                if let o = join.rightOrder {
                    columns.append(o)
                    selects.append("o.\(q(inverseOrder ?? omine))")
                }
                try db.execute("INSERT INTO \(q(join.name)) (\(columns.map(q).joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) FROM \(q(oldJoin.name + Self.aside)) AS o")
                return
            }
        }
    }

    /// Creates an index of the new mapping (`createIndex(_:db:mapping:storeIdentifier:)`).
    private func createIndex(_ statement: String) throws {
        try Self.createIndex(statement, db: db, mapping: new, storeIdentifier: storeIdentifier)
    }

    /// Creates an index of `mapping` in `db`; a unique one over duplicates is
    /// `uniqueConstraintViolation` naming two colliding records (lower keys first).
    static func createIndex(_ statement: String, db: SQLiteConnection, mapping new: SQLiteMapping, storeIdentifier: String) throws {
        do {
            try db.execute(statement)
        } catch let error as SQLiteError where error.primary == 19 /* SQLITE_CONSTRAINT */ {
            if let (entity, properties, sql) = SQLMigration.uniqueCollision(statement, new, SQLiteDialect.self) {
                let pair = try db.prepare(sql).rows { ($0.int64(0), $0.int64(1)) }.first
                let ids = pair.map { [$0.0, $0.1].map { PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, primaryKey: $0) } } ?? []
                throw SaveRules.migrationUniqueViolation(entity, properties: properties, records: ids)
            }
            throw error
        }
    }
}
