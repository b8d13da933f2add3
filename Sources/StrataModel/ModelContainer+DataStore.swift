extension ModelContainer {
    /// Opens a custom store (SwiftData's `DataStore` protocol) for the given model types, as
    /// SwiftData does: `ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(…))`.
    ///
    /// The container fills in the configuration's `schema` with the models' schema, opens the
    /// store with `init(_:migrationPlan:)` (plan `nil`) and runs it behind the core contract
    /// through `CustomStoreAdapter`.
    ///
    /// - Throws: `invalidRequest` unless exactly one configuration is given (a Strata container
    ///   opens one store); `invalidSchema` for model types that do not form a schema; what the
    ///   store throws, as a `StrataError`.
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: any DataStoreConfiguration...) throws {
        try self.init(for: forTypes, migrationPlan: nil, configurations: configurations)
    }

    /// Opens a custom store for the given model types, handing `migrationPlan` to the store's
    /// `init(_:migrationPlan:)`.
    public convenience init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: any DataStoreConfiguration...) throws {
        try self.init(for: forTypes, migrationPlan: migrationPlan, configurations: configurations)
    }

    private convenience init(for types: [any PersistentModel.Type], migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration]) throws {
        guard configurations.count == 1, let given = configurations.first else {
            throw StrataError(.invalidRequest, "A ModelContainer opens one store: give it exactly one configuration (\(configurations.count) given).")
        }
        let modelTypes = try ModelSchema(types).infos.mapValues(\.type)
        func wrap<C: DataStoreConfiguration>(_ configuration: C) -> any Strata.DataStoreConfiguration {
            var wrapped = CustomStoreConfiguration<C.Store>(configuration, migrationPlan: migrationPlan)
            wrapped.modelTypes = modelTypes
            return wrapped
        }
        try self.init(for: types, configurations: wrap(given))
    }
}
