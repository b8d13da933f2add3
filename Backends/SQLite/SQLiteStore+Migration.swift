import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The SQLite backend's side of migration: reading the recorded schema of a file without opening
/// it at a schema.
extension SQLiteStore {
    /// The schema recorded in the file (row `schema_record` of `strata_metadata`), or `nil` when
    /// there is no file or it is empty. Opens the file read-only; never writes.
    ///
    /// - Throws: `corruptStore` for a file that is not a Strata store, `unsupported` for a newer
    ///   format.
    public static func recordedSchema(_ configuration: SQLiteStoreConfiguration) throws -> RecordedSchema? {
        let path = configuration.url.path
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil, size > 0 else { return nil }
        do {
            let db = try SQLiteConnection(path: path, create: false, readOnly: true, busyTimeout: configuration.busyTimeout)
            return try SQLiteFormat.read(db)?.1
        } catch let error as SQLiteError {
            throw error.strataError(file: path)
        }
    }

    /// Migrates the file in one SQLite transaction (`SQLiteMigration`): `ALTER TABLE` in place
    /// for additive changes (an added attribute costs O(1)), a table rebuild otherwise. Keys,
    /// key counters and the store identifier are kept.
    ///
    /// - Throws: `storeLocked` while another connection writes; `schemaMismatch` when the file is
    ///   not at the migration's source; `uniqueConstraintViolation` naming two colliding records —
    ///   the file unchanged.
    public static func migrateStore(_ configuration: SQLiteStoreConfiguration, _ migration: SchemaMigration) throws {
        try SQLiteMigration.run(path: configuration.url.path, busyTimeout: configuration.busyTimeout, migration)
    }
}

/// SQLite takes a whole staged migration path in one transaction (`SQLiteStateMigration`), so a
/// plan's custom stages are atomic under kill -9, as on the other built-in backends.
@_spi(StrataEngine) extension SQLiteStore: StateMigratable {
    /// Migrates the file in one SQLite transaction: its records become `rewrite(records)`; any
    /// error or a crash leaves it at the old schema.
    ///
    /// - Throws: `ioFailure` for a missing file, `storeLocked` while another connection writes,
    ///   `schemaMismatch` when the file is not at `source`, `rewrite`'s errors — the file unchanged.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: SQLiteStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try SQLiteStateMigration.run(path: configuration.url.path, busyTimeout: configuration.busyTimeout, from: source, to: destination, rewrite: rewrite)
    }
}
