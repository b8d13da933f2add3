@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The XML backend's side of migration: the root element records the schema (`schemaRecord`),
/// and a migration rewrites the document in one atomic replace (`JournaledDocument.migrate`).
extension XMLStore {
    /// The schema the document records, or `nil` when there is no document. Never writes.
    public static func recordedSchema(_ configuration: XMLStoreConfiguration) throws -> RecordedSchema? {
        try JournaledDocument<XMLFormat>.recordedSchema(url: configuration.url, format: XMLFormat(schema: configuration.schema))
    }

    /// Applies one schema change in the backend's atomic step (`StateMigratable`).
    public static func migrateStore(_ configuration: XMLStoreConfiguration, _ migration: SchemaMigration) throws {
        try migrateByRewriting(configuration, migration)
    }
}

/// The whole staged path of a migration plan in one atomic step.
@_spi(StrataEngine) extension XMLStore: StateMigratable {
    /// Rewrites the store at the migration's destination schema in one atomic document replace,
    /// under the writer lock.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: XMLStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try JournaledDocument<XMLFormat>.migrate(url: configuration.url, format: XMLFormat(schema: source), from: source, to: destination, lockWait: configuration.lockWait, rewrite: rewrite)
    }
}
