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
            let environment = try LMDBEnvironment(
                path: path, mapSize: configuration.initialMapSize, maximumMapSize: configuration.maximumMapSize,
                maxDatabases: 2, flags: MDB_RDONLY)
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

/// LMDB migrates through the core's copy-and-swap path: the records are copied at the new schema
/// into a staging environment beside the store, whose `data.mdb` then replaces the store's in one
/// rename. Keys are renumbered by the copy (see `CopyAndSwapMigratable`); an in-place rewrite in
/// one write transaction, which would keep them, is not written yet.
extension LMDBStore: CopyAndSwapMigratable {
    /// `<folder>.migrating` beside the store's folder, at `schema`.
    public static func stagingConfiguration(for configuration: LMDBStoreConfiguration, schema: Schema) throws -> LMDBStoreConfiguration {
        var staging = configuration
        staging.folder = configuration.folder.deletingLastPathComponent().appendingPathComponent(configuration.folder.lastPathComponent + ".migrating")
        staging.schema = schema
        staging.isReadOnly = false
        staging.durability = .full  // synced before it is renamed into place
        return staging
    }

    /// Renames the staging environment's `data.mdb` over the store's (atomic), then removes the
    /// staging folder.
    ///
    /// - Throws: `ioFailure` when the rename fails; the store is then unchanged.
    public static func replaceStore(_ configuration: LMDBStoreConfiguration, with staging: LMDBStoreConfiguration) throws {
        let from = staging.folder.appendingPathComponent("data.mdb").path, to = configuration.folder.appendingPathComponent("data.mdb").path
        guard rename(from, to) == 0 else {
            throw StrataError(.ioFailure, "Cannot move the migrated environment into place (errno \(errno)); the store is unchanged.", file: to)
        }
        let folder = open(configuration.folder.path, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        removeStore(staging)
    }

    /// Removes the staging folder.
    public static func removeStore(_ staging: LMDBStoreConfiguration) {
        try? FileManager.default.removeItem(at: staging.folder)
    }

    /// The copy-and-swap path of the core.
    public static func migrateStore(_ configuration: LMDBStoreConfiguration, _ migration: SchemaMigration) throws {
        try copyAndSwap(configuration, migration)
    }
}
