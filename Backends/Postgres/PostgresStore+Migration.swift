import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The PostgreSQL backend's side of migration: reading the recorded schema without opening the
/// store at a schema, and migrating in place in one transaction under the store's write lock
/// (`PostgresMigration`; docs/formats/postgres.md, "Migrations").
extension PostgresStore {
    /// The schema recorded in the namespace's `strata_metadata` (row `schema_record`), or `nil` when
    /// the namespace holds no store. Never writes; waits for a save or migration in progress
    /// (`PostgresCatalog.underSharedLock`), so it reads the version that one leaves.
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached, `corruptStore` for a
    ///   namespace holding someone else's tables, `unsupported` for a newer format.
    public static func recordedSchema(_ configuration: PostgresStoreConfiguration) throws -> RecordedSchema? {
        let connection = try PostgresConnection(settings: configuration.settings)
        do {
            return try PostgresCatalog.underSharedLock(connection, namespace: configuration.namespace) {
                try PostgresCatalog.read(connection, namespace: configuration.namespace, file: configuration.name)?.1
            }
        } catch let error as PostgresError {
            throw error.strataError(store: configuration.name)
        }
    }

    /// Migrates the store in place in one transaction (`PostgresMigration`): `ALTER TABLE` for
    /// additive changes (an added attribute costs O(1)), the tables rewritten otherwise. Keys, key
    /// counters and the store identifier are kept; a save of another connection waits for it.
    ///
    /// - Throws: `ioFailure` when the namespace holds no store, `schemaMismatch` when the store is
    ///   not at the migration's source, `uniqueConstraintViolation` naming two colliding records,
    ///   `storeUnavailable` — the store unchanged.
    public static func migrateStore(_ configuration: PostgresStoreConfiguration, _ migration: SchemaMigration) throws {
        try PostgresMigration.run(configuration, migration)
    }
}

/// PostgreSQL takes a whole staged migration path in one transaction, so a plan's custom stages
/// are atomic under kill -9 and no save of another process lands between the read and the write.
@_spi(StrataEngine) extension PostgresStore: StateMigratable {
    /// Migrates the store in one transaction: its records become `rewrite(records)`; any error,
    /// a lost connection or a crash leaves it at the old schema.
    ///
    /// - Throws: `ioFailure` when the namespace holds no store, `schemaMismatch` when it is not at
    ///   `source`, `rewrite`'s errors, `storeUnavailable` — the store unchanged.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: PostgresStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try PostgresMigration.run(configuration, from: source, to: destination, rewrite: rewrite)
    }
}
