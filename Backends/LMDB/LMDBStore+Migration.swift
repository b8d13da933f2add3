import CLMDB
import Foundation
import Strata

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
