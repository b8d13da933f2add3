/// The core configuration of a custom store: the user's SwiftData-style configuration, wrapped so
/// that `CustomStoreAdapter` can open the store behind Strata's store contract.
///
/// `ModelContainer(for:configurations:)` makes one from a `DataStoreConfiguration`; make one
/// yourself to run a custom store where a core store is expected, e.g. by the conformance suite:
///
/// ```swift
/// let factory = StoreFactory<CustomStoreAdapter<JSONStore>> { directory, schema in
///     CustomStoreConfiguration(JSONStoreConfiguration(name: "trips", fileURL: directory.appendingPathComponent("trips.json")), schema: schema)
/// }
/// ```
public struct CustomStoreConfiguration<Wrapped: DataStore>: Strata.DataStoreConfiguration, @unchecked Sendable {
    // @unchecked: SwiftData's configurations need not be Sendable; the adapter reads `wrapped`
    // only while opening the store.

    /// The store that opens this configuration.
    public typealias Store = CustomStoreAdapter<Wrapped>

    /// The custom store's own configuration; its `schema` is set from `schema` when the store opens.
    public var wrapped: Wrapped.Configuration
    /// The schema of the data.
    public var schema: Schema
    /// Refuses every save with `readOnlyStore` (a custom store has no read-only mode of its own, so
    /// opening a missing store read-only is the store's business).
    public var isReadOnly = false
    /// What the custom store supports beyond the required contract, as the suite should assume.
    public var capabilities: StoreCapabilities
    /// The migration plan handed to the store's `init(_:migrationPlan:)`.
    public var migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The model type of each entity, when the container knows them: the `T` of the store's
    /// `DataStoreFetchRequest<T>`. Entities without one are fetched as `SchemaRecord`.
    var modelTypes: [String: any PersistentModel.Type] = [:]

    /// The configuration's name: the custom store's.
    public var name: String { wrapped.name }

    /// Wraps a custom store's configuration.
    public init(
        _ wrapped: Wrapped.Configuration, schema: Schema = .empty,
        capabilities: StoreCapabilities = [.orderedRelationships, .manyToMany, .largeValues, .concurrentAccess],
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil
    ) {
        self.wrapped = wrapped
        self.schema = schema
        self.capabilities = capabilities
        self.migrationPlan = migrationPlan
    }
}
