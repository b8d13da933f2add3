extension ModelContainer {
    /// Opens a custom store (SwiftData's `DataStore` protocol) for the given model types, as
    /// SwiftData does: `ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(…))`.
    ///
    /// The container fills in the configuration's `schema` with the models' schema, opens the
    /// store with `init(_:migrationPlan:)` (plan `nil`) and runs it behind the core contract
    /// through `CustomStoreAdapter`. (The first configuration is its own parameter so that
    /// `ModelContainer(for: Trip.self)`, with none, still means the default store.)
    ///
    /// Several configurations each hold the entities their `schema` names, in a store of their
    /// own (docs/models.md, "Several configurations").
    ///
    /// - Throws: `invalidSchema` for model types that do not form a schema, or configurations that
    ///   split a relationship between stores or hold no configuration for an entity; what the
    ///   store throws, as a `StrataError`.
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: any DataStoreConfiguration, _ more: any DataStoreConfiguration...) throws {
        try self.init(modelSchema: ModelSchema(forTypes), migrationPlan: nil, configurations: [configurations] + more)
    }

    /// Opens a custom store for the given model types, handing `migrationPlan` to the store's
    /// `init(_:migrationPlan:)`.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: any DataStoreConfiguration, _ more: any DataStoreConfiguration...
    ) throws {
        try self.init(modelSchema: ModelSchema(forTypes), migrationPlan: migrationPlan, configurations: [configurations] + more)
    }

    /// Opens a custom store for the model types of `givenSchema` (made with `Schema([Trip.self])`):
    /// `ModelContainer(for: schema, configurations: [JSONStoreConfiguration(…)])`.
    ///
    /// - Throws: `invalidSchema` for a schema not made from model types; as the other initializers.
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(modelSchema: ModelSchema(ModelTypeRegistry.types(of: givenSchema)), migrationPlan: nil, configurations: configurations)
    }

    /// Opens a custom store for the model types of `givenSchema`, handing `migrationPlan` to the
    /// store's `init(_:migrationPlan:)`.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration]) throws {
        try self.init(modelSchema: ModelSchema(ModelTypeRegistry.types(of: givenSchema)), migrationPlan: migrationPlan, configurations: configurations)
    }

    private convenience init(modelSchema: ModelSchema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration]) throws {
        let modelTypes = modelSchema.infos.mapValues(\.type)
        func wrap<C: DataStoreConfiguration>(_ configuration: C) -> any Strata.DataStoreConfiguration {
            var wrapped = CustomStoreConfiguration<C.Store>(configuration, migrationPlan: migrationPlan)
            wrapped.modelTypes = modelTypes
            return wrapped
        }
        guard configurations.count > 1 else {
            guard let given = configurations.first else {
                throw StrataError(.invalidRequest, "A custom-store container needs a configuration; with none, use ModelContainer(for:) (the default store).")
            }
            try self.init(modelSchema: modelSchema, adapterConfiguration: wrap(given))
            return
        }
        // Several configurations: one store each, holding the entities its `schema` names, as
        // with several `ModelConfiguration`s (`ModelConfigurationGroups`).
        let groups = try ModelConfigurationGroups(members: configurations.map { .init(name: $0.name, schema: $0.schema, location: nil) }, schema: modelSchema.schema)
        var opened: [OpenedStore] = []
        var described = Set<ModelConfiguration>()
        for (index, schema) in zip(groups.holders, groups.schemas) {
            func open<Configuration: Strata.DataStoreConfiguration>(_ adapter: Configuration) throws {
                var configuration = adapter
                configuration.schema = schema
                opened.append(try openBackend(configuration, models: modelSchema))
                described.insert(ModelConfiguration(describing: configuration))
            }
            try open(wrap(configurations[index]))
        }
        self.init(modelSchema: modelSchema, opened: RoutedModelStore.opened(opened, schemas: groups.schemas, containerSchema: modelSchema.schema), configurations: described)
    }

    private convenience init<Configuration: Strata.DataStoreConfiguration>(modelSchema: ModelSchema, adapterConfiguration: Configuration) throws {
        var configuration = adapterConfiguration
        configuration.schema = modelSchema.schema
        try self.init(modelSchema: modelSchema, opened: openBackend(configuration, models: modelSchema), configurations: [ModelConfiguration(describing: configuration)])
    }
}
