import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The PostgreSQL backend's side of migration: reading the recorded schema without opening the
/// store at a schema, and the core's copy-and-swap (`CopyAndSwapMigratable`) with a swap that is
/// one PostgreSQL transaction (docs/formats/postgres.md, "Migrations").
extension PostgresStore: CopyAndSwapMigratable {
    /// The schema recorded in the namespace's `strata_metadata` (row `schema_record`), or `nil` when
    /// the namespace holds no store. Never writes.
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached, `corruptStore` for a
    ///   namespace holding someone else's tables, `unsupported` for a newer format.
    public static func recordedSchema(_ configuration: PostgresStoreConfiguration) throws -> RecordedSchema? {
        let connection = try PostgresConnection(settings: configuration.settings)
        do {
            return try PostgresCatalog.read(connection, namespace: configuration.namespace, file: configuration.name)?.1
        } catch let error as PostgresError {
            throw error.strataError(store: configuration.name)
        }
    }

    /// The store's namespace with `~migration` appended, on the same server.
    public static func stagingConfiguration(for configuration: PostgresStoreConfiguration, schema: Schema) throws -> PostgresStoreConfiguration {
        var staging = configuration
        staging.schema = schema
        staging.namespace = configuration.namespace + "~migration"
        return staging
    }

    /// Drops the store's namespace and renames the staging one to it, in one transaction: another
    /// connection sees the old store or the new one, never neither.
    public static func replaceStore(_ configuration: PostgresStoreConfiguration, with staging: PostgresStoreConfiguration) throws {
        let connection = try PostgresConnection(settings: configuration.settings)
        let q = PostgresCatalog.quote
        do {
            try connection.execute("BEGIN")
            try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(configuration.namespace)])
            try connection.execute("DROP SCHEMA IF EXISTS \(q(configuration.namespace)) CASCADE; ALTER SCHEMA \(q(staging.namespace)) RENAME TO \(q(configuration.namespace)); COMMIT")
        } catch let error as PostgresError {
            try? connection.execute("ROLLBACK")
            throw error.strataError(store: configuration.name)
        }
    }

    /// Drops the staging namespace; errors are ignored.
    public static func removeStore(_ staging: PostgresStoreConfiguration) {
        try? dropStore(staging)
    }
}
