import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The markers that make a SQLite file a Strata store, and the checks made before touching one.
enum SQLiteFormat {
    /// `PRAGMA application_id`: "STRA".
    static let applicationID: Int64 = 0x5354_5241
    /// `PRAGMA user_version`: the newest layout version this code reads. 2 is a store this version
    /// has written history into: it numbers history from the table, not from `history_last`, which
    /// version 1 writers read and write on every save, so a version 1 writer would fail on a taken
    /// number or, after `deleteHistory`, reuse numbers below the horizon. Raising the version the
    /// first time this version records makes an older Strata refuse the store (`newerFormat`)
    /// instead (docs/formats/sqlite.md, "Format versions"). 3 is a store whose history rows this
    /// version may have written in the compact form (docs/history.md, "Stored form"), which a
    /// version 2 reader cannot decode: raised the same way, the first time this version records.
    static let version: Int64 = 3
    /// The version a new store gets, and keeps while this version records no history in it.
    static let createdVersion: Int64 = 1
    /// The version a store is raised to the first time this version writes history into it.
    static let historyVersion: Int64 = 3
    static let metadataTable = "strata_metadata"
    /// The metadata key of a store whose pages carry checksums (`SQLiteChecksumVFS`); its value is
    /// the reserved bytes per page.
    static let pageChecksums = "page_checksums"

    /// Creates the tables of a new store in `db`, inside a transaction.
    static func create(_ db: SQLiteConnection, mapping: SQLiteMapping, storeIdentifier: String) throws {
        // Room for the page checksums (`SQLiteChecksumVFS`), before the first write fixes the layout.
        let checksummed = SQLiteChecksumVFS.registered != nil && db.reserveBytes(SQLiteChecksumVFS.reservedBytes) == SQLiteChecksumVFS.reservedBytes
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("BEGIN IMMEDIATE")
        do {
            try db.execute("PRAGMA application_id = \(applicationID)")
            try db.execute("PRAGMA user_version = \(createdVersion)")
            try db.execute("CREATE TABLE \(SQLiteMapping.quote(metadataTable)) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT NOT NULL)")
            for statement in mapping.ddl() { try db.execute(statement) }
            let schemaJSON = String(decoding: try JSONEncoder().encode(mapping.schema), as: UTF8.self)
            let insert = try db.prepare("INSERT INTO \(SQLiteMapping.quote(metadataTable)) (\"key\", \"value\") VALUES (?, ?)")
            let record = String(decoding: RecordedSchema(mapping.schema).encoded(), as: UTF8.self)
            var rows = [("format", String(createdVersion)), ("fingerprint", mapping.schema.fingerprint), ("store_identifier", storeIdentifier), ("schema", schemaJSON), ("schema_record", record)]
            if checksummed { rows.append((pageChecksums, String(SQLiteChecksumVFS.reservedBytes))) }
            for (k, v) in rows {
                try insert.run([.text(k), .text(v)])
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Checks an existing file without writing to it; returns the store identifier and whether a
    /// writer must rewrite the schema record (`RecordedSchema.check(opening:)`), or `nil` if the
    /// file is an empty SQLite database that can be made a store.
    static func inspect(_ db: SQLiteConnection, schema: Schema) throws -> (String, RecordedSchema.OpeningOutcome)? {
        guard let (identifier, recorded) = try read(db) else { return nil }
        return (identifier, try recorded.check(opening: schema, file: db.path))
    }

    /// Refuses a store holding a primary key outside 1 ..< `StoreState.keyLimit`, which no save
    /// writes and every other backend refuses when it reads one: the smallest and largest key of
    /// each entity's table (two seeks of the rowid B-tree each, at open).
    ///
    /// - Throws: `corruptStore` naming the entity and the key.
    static func checkKeys(_ db: SQLiteConnection, mapping: SQLiteMapping) throws {
        for entity in mapping.schema.entities {
            let table = SQLiteMapping.quote(mapping.tables[entity.index].name)
            let bounds: [(Int64?, Int64?)]
            do {
                bounds = try db.prepare("SELECT (SELECT min(\"_pk\") FROM \(table)), (SELECT max(\"_pk\") FROM \(table))").rows {
                    ($0.isNull(0) ? nil : $0.int64(0), $0.isNull(1) ? nil : $0.int64(1))
                }
            } catch let error as SQLiteError {
                throw error.primary == 11 /* SQLITE_CORRUPT */ || error.primary == 26 /* SQLITE_NOTADB */
                    ? StrataError(.corruptStore, "The table of '\(entity.name)' is damaged (\(error.message)); restore the store from a backup.", entity: entity.name, file: db.path)
                    : error.strataError(file: db.path)
            }
            for key in [bounds.first?.0, bounds.first?.1].compactMap({ $0 }) where key <= 0 || key >= StoreState.keyLimit {
                throw StrataError(.corruptStore, "Record of '\(entity.name)' has primary key \(key); keys run from 1 to \(StoreState.keyLimit - 1). Restore the store from a backup.", entity: entity.name, file: db.path)
            }
        }
    }

    /// Writes the schema record of `schema` (the upgrade of a store written before records, or
    /// of an older version), in one transaction.
    static func writeRecord(_ db: SQLiteConnection, schema: Schema, inTransaction: Bool = false) throws {
        let record = String(decoding: RecordedSchema(schema).encoded(), as: UTF8.self)
        let schemaJSON = String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
        if !inTransaction { try db.execute("BEGIN IMMEDIATE") }
        do {
            let upsert = try db.prepare("INSERT OR REPLACE INTO \(SQLiteMapping.quote(metadataTable)) (\"key\", \"value\") VALUES (?, ?)")
            for (key, value) in [("schema_record", record), ("schema", schemaJSON), ("fingerprint", schema.fingerprint)] {
                try upsert.run([.text(key), .text(value)])
            }
            if !inTransaction { try db.execute("COMMIT") }
        } catch {
            if !inTransaction { try? db.execute("ROLLBACK") }
            throw error
        }
    }

    /// Reads the store identifier and recorded schema of an existing file without writing to it,
    /// or `nil` if the file is an empty SQLite database. A store written before schema records
    /// kept the declaration (`schema`) without a version: it reads with `version == nil`.
    static func read(_ db: SQLiteConnection) throws -> (String, RecordedSchema)? {
        let file = db.path
        func scalar(_ sql: String) throws -> Int64 {
            do {
                return try db.prepare(sql).rows { $0.int64(0) }.first ?? 0
            } catch let error as SQLiteError {
                throw error.primary == 26 /* SQLITE_NOTADB */ || error.primary == 11 /* SQLITE_CORRUPT */
                    ? StrataError(.corruptStore, "The file is not a SQLite database, or is damaged (\(error.message)); it was left untouched.", file: file, native: .init(.sqlite, code: Int(error.code), message: error.message))
                    : error.strataError(file: file)
            }
        }
        let application = try scalar("PRAGMA application_id")
        let version = try scalar("PRAGMA user_version")
        let tables = try scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if application == 0 && version == 0 && tables == 0 { return nil }
        guard application == applicationID else {
            throw StrataError(.corruptStore, "The SQLite database holds someone else's tables (application_id \(application)), not a Strata store; it was left untouched. Open another file.", file: file)
        }
        guard version <= Self.version else {
            throw StrataError.newerFormat(version, readsUpTo: Self.version, file: file)
        }
        let rows: [(String, String)]
        do {
            rows = try db.prepare("SELECT \"key\", \"value\" FROM \(SQLiteMapping.quote(metadataTable))").rows { ($0.text(0), $0.text(1)) }
        } catch let error as SQLiteError {
            throw error.primary == 11 /* SQLITE_CORRUPT */ || error.primary == 26 /* SQLITE_NOTADB */
                ? StrataError(.corruptStore, "The store's metadata table is damaged (\(error.message)); it was left untouched. Restore it from a backup.", file: file)
                : error.strataError(file: file)
        }
        let metadata = Dictionary(rows, uniquingKeysWith: { a, _ in a })
        guard let fingerprint = metadata["fingerprint"], let identifier = metadata["store_identifier"] else {
            throw StrataError(.corruptStore, "The store's metadata table is incomplete.", file: file)
        }
        if let reserved = metadata[pageChecksums] {
            // A damaged header byte would turn the checks off: the metadata says they must be on.
            guard SQLiteChecksumVFS.registered != nil, String(db.reserveBytes(-1)) == reserved else {
                throw StrataError(.corruptStore, "The store's pages carry checksums, but its header says they have no room for them (reserved bytes \(db.reserveBytes(-1)), \(reserved) recorded): the header is damaged. Restore the store from a backup.", file: file)
            }
        }
        if let record = metadata["schema_record"] {
            return (identifier, try RecordedSchema(decoding: Array(record.utf8), file: file))
        }
        var legacy = RecordedSchema(legacyFingerprint: fingerprint, canonicalDescription: nil)
        if let json = metadata["schema"], let declared = try? JSONDecoder().decode(Schema.self, from: Data(json.utf8)), declared.fingerprint == fingerprint {
            legacy.schema = declared
            legacy.canonicalDescription = declared.canonicalDescription
        }
        return (identifier, legacy)
    }
}
