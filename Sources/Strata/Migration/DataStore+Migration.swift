/// The migration side of the store contract: reading a store's recorded schema without opening
/// it, applying a `SchemaMigration`, and opening with lightweight migration on open.
///
/// `recordedSchema(_:)` and `migrateStore(_:_:)` are `DataStore` requirements with defaults, so a
/// third-party backend written before them keeps compiling: its `recordedSchema` says
/// `unsupported` (the model layer then opens it as before: same schema, or `schemaMismatch`), and
/// its `migrateStore` uses the copy-and-swap path when the store conforms to
/// `CopyAndSwapMigratable`, and says `unsupported` otherwise.
extension DataStore {
    /// The default: this backend does not say what schema its stores hold.
    ///
    /// - Throws: `unsupported`, always.
    public static func recordedSchema(_ configuration: Configuration) throws -> RecordedSchema? {
        throw StrataError(.unsupported, "The \(Self.self) backend does not record its schema; open its stores with the schema they were written with.", file: configuration.name)
    }

    /// The default: copy-and-swap for a `CopyAndSwapMigratable` store, `unsupported` otherwise.
    ///
    /// - Throws: `unsupported` for a backend that can neither migrate in place nor be copied;
    ///   the copy path's errors otherwise.
    public static func migrateStore(_ configuration: Configuration, _ migration: SchemaMigration) throws {
        if let swappable = Self.self as? any CopyAndSwapMigratable.Type {
            try swappable.copyAndSwap(anyConfiguration: configuration, migration)
            return
        }
        throw StrataError(.unsupported, "The \(Self.self) backend cannot migrate a store: it neither migrates in place (`migrateStore`) nor provides a staging location for a copy (`CopyAndSwapMigratable`).", file: configuration.name)
    }

    /// Opens the store at `configuration`, first migrating it when it holds data of another schema
    /// and the difference is lightweight (SwiftData migrates such a store on open too).
    ///
    /// A store of the same schema, a new location, or a backend that does not record its schema
    /// opens as `init(_:)` does. A read-only open never migrates.
    ///
    /// - Throws: `schemaMismatch` naming both versions and the differences when the difference is
    ///   not lightweight (the reason of the `migrationRequired` is in the message, its entity and
    ///   property in the error's), when it would drop an entity (a store opened with only some of
    ///   its models keeps the others), when the store is of a newer version than the schema, when
    ///   it recorded only a fingerprint, or for a read-only open; the store is left untouched. The migration's own errors
    ///   (`uniqueConstraintViolation` for values that collide under a new constraint…), also with
    ///   the store untouched.
    public static func openMigrating(_ configuration: Configuration) throws -> Self {
        let recorded: RecordedSchema?
        do {
            recorded = try recordedSchema(configuration)
        } catch let error as StrataError where error.code == .unsupported {
            return try Self(configuration)
        }
        guard let recorded, recorded.fingerprint != configuration.schema.fingerprint else { return try Self(configuration) }
        let schema = configuration.schema
        if let version = recorded.version, version > schema.version {
            throw recorded.mismatch(opening: schema, file: configuration.name)
        }
        guard let old = recorded.schema else {
            throw recorded.mismatch(opening: schema, file: configuration.name, reason: "The store recorded only its schema's fingerprint, so it cannot be migrated automatically")
        }
        guard !configuration.isReadOnly else {
            throw recorded.mismatch(opening: schema, file: configuration.name, reason: "A read-only open never migrates")
        }
        let migration: SchemaMigration
        do {
            migration = try SchemaMigration.lightweight(from: old, to: schema)
        } catch let error as StrataError where error.code == .migrationRequired {
            var refusal = recorded.mismatch(opening: schema, file: configuration.name, reason: error.message)
            refusal.entity = error.entity
            refusal.properties = error.properties
            throw refusal
        }
        let dropped = migration.changes.compactMap { change -> String? in
            if case .removeEntity(let name) = change { name } else { nil }
        }
        if let first = dropped.first {
            // A store opened with some of its models, or another app's, must not lose the others.
            var refusal = recorded.mismatch(opening: schema, file: configuration.name, reason: "Opening would drop the entit\(dropped.count == 1 ? "y" : "ies") \(dropped.joined(separator: ", ")) and \(dropped.count == 1 ? "its" : "their") records; a migration on open never drops an entity. Open the store with those models too, or drop them in a migration plan's lightweight stage")
            refusal.entity = first
            throw refusal
        }
        try migrateStore(configuration, migration)
        return try Self(configuration)
    }
}
