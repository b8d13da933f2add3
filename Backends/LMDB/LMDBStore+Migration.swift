import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// The LMDB backend's side of migration: reading the recorded schema of an environment without
/// opening it at a schema.
extension LMDBStore {
    /// The schema recorded in the environment (key `schema_record` of `strata.meta`), or `nil`
    /// when the folder holds no store. Opens the environment read-only; never writes.
    ///
    /// - Throws: `corruptStore` for an environment that is not a Strata store, `unsupported` for a
    ///   newer format.
    public static func recordedSchema(_ configuration: LMDBStoreConfiguration) throws -> RecordedSchema? {
        let path = configuration.folder.path
        guard FileManager.default.fileExists(atPath: configuration.folder.appendingPathComponent("data.mdb").path) else { return nil }
        do {
            guard try LMDBFormat.preflight(configuration.folder, readOnly: true) else { return nil }
            // The process's environment on the folder (liblmdb forbids a second one in a process).
            let environment = try LMDBEnvironment.shared(
                path: path, mapSize: configuration.initialMapSize, maximumMapSize: configuration.maximumMapSize,
                maxDatabases: LMDBLayout.environmentSlots(), flags: MDB_RDONLY)
            environment.catalog.lock()
            defer { environment.catalog.unlock() }
            return try environment.read { txn -> RecordedSchema? in
                var meta: MDB_dbi = 0
                let rc = mdb_dbi_open(txn, LMDBLayout.metaName, 0, &meta)
                if rc == MDB_NOTFOUND { return nil }
                try lmdbCheck(rc, "open the metadata database")
                return try LMDBFormat.read(txn, meta, file: path).1
            }
        } catch let error as LMDBError {
            throw error.strataError(path: path)
        }
    }
}

/// LMDB migrates in place, in one write transaction (`LMDBMigration`): keys, key counters and the
/// store identifier are kept.
@_spi(StrataEngine) extension LMDBStore: StateMigratable {
    /// Migrates the environment in one write transaction; any error or a crash leaves it at the
    /// old schema.
    ///
    /// - Throws: `ioFailure` for a folder without a store, `schemaMismatch` when the store is not
    ///   at `source`, `rewrite`'s errors (`uniqueConstraintViolation` naming two records that
    ///   collide under a new constraint…) — the store unchanged.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: LMDBStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try LMDBMigration.run(configuration, from: source, to: destination, rewrite: rewrite)
    }
}

extension LMDBStore {
    /// Applies one schema change in the backend's atomic step (`StateMigratable`).
    public static func migrateStore(_ configuration: LMDBStoreConfiguration, _ migration: SchemaMigration) throws {
        try migrateByRewriting(configuration, migration)
    }
}
