/// The model type of a custom store's fetch when only a schema is known (the conformance suite
/// runs a custom store on schemas that have no model classes): `DataStoreFetchRequest<SchemaRecord>`.
///
/// It has no persisted properties and is never instantiated. A store that needs the entity of a
/// fetch cannot learn it from `T` then; stores written like WWDC24's sample return every record
/// and let the framework drop the other entities', which the adapter does.
public final class SchemaRecord: PersistentModel {
    /// The identity every model carries.
    public let persistentBackingData: ModelBackingData
    /// No persisted properties.
    public static var schemaMetadata: [ModelPropertyMetadata] { [] }
    /// No constraints.
    public static var schemaConstraints: ModelConstraints { ModelConstraints(unique: [], indexes: []) }
    /// No property names.
    public static func propertyName(for keyPath: AnyKeyPath) -> String? { nil }
    /// No key paths.
    public static func _$keyPath(_ ordinal: Int, optionalRoot: Bool) -> AnyKeyPath? { nil }

    /// Takes a fetched record's backing data (never called: nothing registers a `SchemaRecord`).
    public init(_$fetched backingData: ModelBackingData) {
        persistentBackingData = backingData
    }

    /// No properties.
    public func _$encode(_ ordinal: Int) -> _PropertyValue { .stored }
    /// No properties.
    public func _$assign(_ ordinal: Int, _ value: Value) throws {}
    /// No properties.
    public func _$refault() {}
    /// No relationships.
    public func _$inverse(_ ordinal: Int, _ change: _InverseChange) {}
}
