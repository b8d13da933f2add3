/// How an app's schema evolved: every version it shipped, and the stages that take a store from
/// one version to the next.
///
/// ```swift
/// enum TripsMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
///     static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
/// }
/// let container = try ModelContainer(for: SchemaV2.Trip.self, migrationPlan: TripsMigrationPlan.self, configurations: configuration)
/// ```
///
/// `ModelContainer(for:migrationPlan:configurations:)` reads the version the store was written
/// at, follows the stages from there to the version whose models the container was given (a
/// chain v1 → v2 → v3 runs in one open), and opens the store at that version. See
/// docs/migrations.md.
public protocol SchemaMigrationPlan: SendableMetatype {
    /// Every version of the schema, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages between versions.
    static var stages: [MigrationStage] { get }
}
