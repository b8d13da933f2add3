/// How an app's schema evolved (SwiftData's `SchemaMigrationPlan`).
///
/// Placeholder until the migration work lands: the custom-store protocol's
/// `DataStore.init(_:migrationPlan:)` names this type, and the container passes `nil`.
public protocol SchemaMigrationPlan: SendableMetatype {}
