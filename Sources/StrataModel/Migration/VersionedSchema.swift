/// One version of an app's schema: the model types it contains and its version identifier.
///
/// As in SwiftData, each version is usually a namespace holding its own copies of the models, and
/// the entity name is the bare class name in every version (`SchemaV1.Trip` and `SchemaV2.Trip`
/// are both the entity `Trip`):
///
/// ```swift
/// enum SchemaV1: VersionedSchema {
///     static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///     @Model final class Trip {
///         var name: String
///         init(name: String) { self.name = name }
///     }
/// }
/// ```
///
/// A `SchemaMigrationPlan` lists the versions and the stages between them.
public protocol VersionedSchema: SendableMetatype {
    /// The version this schema is (recorded in the store; stages name versions by it).
    static var versionIdentifier: Schema.Version { get }
    /// The model types of this version (types their relationships reach are included).
    static var models: [any PersistentModel.Type] { get }
}
