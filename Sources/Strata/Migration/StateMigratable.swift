/// A backend whose migration loads the store's records into the core's engine and writes the
/// result in one atomic step (memory, JSON, CSV, XML, LMDB): such a step can take a whole staged
/// migration path — several schema changes and the code of custom stages between them — instead of
/// one schema change, so a migration with custom stages is atomic too, under kill -9.
///
/// The model layer runs a `SchemaMigrationPlan`'s stages through this when the store conforms:
/// `rewrite` gets the records as stored (keys and key counters included) and returns them at the
/// destination schema; the backend writes them under its writer lock (or in its write
/// transaction), so no save of another process lands between the read and the write. Keys are the
/// loaded ones, and records `rewrite` inserts get keys from the loaded counters, never reused ones.
@_spi(StrataEngine) public protocol StateMigratable: DataStore {
    /// Replaces the records of the store at `configuration`, which must hold `source`, with
    /// `rewrite(records)`, at `destination`, in one atomic step; the store then records
    /// `destination`. `rewrite` runs while the store's writer lock is held.
    ///
    /// - Throws: `ioFailure` when there is no store, `storeLocked` while another writer holds the
    ///   store, `schemaMismatch` when the store is not at `source` or `rewrite`'s result is not at
    ///   `destination`, and whatever `rewrite` throws — the store unchanged after any of them.
    static func migrateStore(_ configuration: Configuration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws
}

extension StateMigratable {
    /// Applies one schema change by `StoreState.migrated(by:)` in the atomic step: what a
    /// conforming backend's `migrateStore(_:_:)` does.
    public static func migrateByRewriting(_ configuration: Configuration, _ migration: SchemaMigration) throws {
        try migrateStore(configuration, from: migration.source, to: migration.destination) { try $0.migrated(by: migration) }
    }

    /// `migrateStore(_:from:to:rewrite:)` through a configuration of unknown static type (the model
    /// layer calls it on an existential metatype).
    public static func migrateStore(anyConfiguration: any DataStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try migrateStore(ownConfiguration(anyConfiguration), from: source, to: destination, rewrite: rewrite)
    }
}

extension StoreState {
    /// Checks that a rewritten state is at `destination`, for `StateMigratable` backends.
    ///
    /// - Throws: `schemaMismatch` when it is not.
    public func requireSchema(_ destination: Schema) throws {
        guard schema.fingerprint == destination.fingerprint else {
            throw StrataError(.schemaMismatch, "A migration's rewrite returned records of schema fingerprint \(schema.fingerprint); the migration ends at \(destination.version) (fingerprint \(destination.fingerprint)). Nothing was written.")
        }
    }
}
