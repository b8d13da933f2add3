@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The JSON backend's side of migration: the document records its schema (`schemaRecord`), and a
/// migration rewrites the document in one atomic replace (`JournaledDocument.migrate`).
extension JSONStore {
    /// The schema the document records, or `nil` when there is no document. Never writes.
    public static func recordedSchema(_ configuration: JSONStoreConfiguration) throws -> RecordedSchema? {
        try JournaledDocument<JSONFormat>.recordedSchema(url: configuration.url, format: JSONFormat())
    }

    /// Applies one schema change in the backend's atomic step (`StateMigratable`).
    public static func migrateStore(_ configuration: JSONStoreConfiguration, _ migration: SchemaMigration) throws {
        try migrateByRewriting(configuration, migration)
    }
}

/// The whole staged path of a migration plan in one atomic step.
@_spi(StrataEngine) extension JSONStore: StateMigratable {
    /// Rewrites the store at the migration's destination schema in one atomic document replace,
    /// under the writer lock.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: JSONStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try JournaledDocument<JSONFormat>.migrate(url: configuration.url, format: JSONFormat(), from: source, to: destination, lockWait: configuration.lockWait, rewrite: rewrite)
    }
}
