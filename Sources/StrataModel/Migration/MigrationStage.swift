/// One step of a `SchemaMigrationPlan`: from one version of the schema to another.
///
/// - `lightweight`: the store applies the difference between the two versions' schemas (added and
///   removed entities and properties, renames named by `originalName:`, optional ↔ required with a
///   default, delete rules, unique constraints, indexes) with no code of yours.
/// - `custom`: the same schema change, with your code around it. `willMigrate` runs with a
///   `ModelContext` on the old version's models, before the change (dedupe before a unique
///   constraint, copy data out of what is about to go); `didMigrate` with one on the new version's
///   models, after it (fill a new required value, move data between entities). Both may fetch,
///   insert, change, delete and save; a thrown error stops the migration and leaves the store at
///   the version it had before the open.
public enum MigrationStage: Sendable {
    /// A stage the store infers from the two schemas.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage with code before (`willMigrate`, old models) and after (`didMigrate`, new models) the schema change.
    @preconcurrency
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?, didMigrate: (@Sendable (ModelContext) throws -> Void)?)

    /// The version the stage starts from.
    var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): return from
        }
    }

    /// The version the stage leads to.
    var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): return to
        }
    }

    /// `lightweight` or `custom`, for messages.
    var kindName: String {
        if case .custom = self { return "custom" }
        return "lightweight"
    }
}
