@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The JSON backend's side of migration: the document records its schema (`schemaRecord`), and a
/// migration rewrites the document in one atomic replace (`JournaledDocument.migrate`).
extension JSONStore {
    /// The schema the document records, or `nil` when there is no document. Never writes.
    public static func recordedSchema(_ configuration: JSONStoreConfiguration) throws -> RecordedSchema? {
        try JournaledDocument<JSONFormat>.recordedSchema(url: configuration.url, format: JSONFormat())
    }

    /// Rewrites the store at the migration's destination schema in one atomic document replace,
    /// under the writer lock.
    public static func migrateStore(_ configuration: JSONStoreConfiguration, _ migration: SchemaMigration) throws {
        try JournaledDocument<JSONFormat>.migrate(url: configuration.url, format: JSONFormat(), migration: migration, lockWait: configuration.lockWait)
    }
}
