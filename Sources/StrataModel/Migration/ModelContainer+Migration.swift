extension ModelContainer {
    /// Opens the store described by a backend configuration for the given model types, first
    /// migrating it with `migrationPlan` from the version it was written at.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: SchemaV3.Trip.self, migrationPlan: TripsMigrationPlan.self, configurations: configuration)
    /// ```
    ///
    /// - Throws: `invalidSchema` for a plan that cannot work (see `SchemaMigrationPlan`);
    ///   `schemaMismatch` naming both versions for a store newer than the app or at a version the
    ///   plan does not list; `migrationRequired` naming both versions, the entity, the property and
    ///   the stage that must be custom; whatever a stage's code throws. The store is at its old
    ///   version after any of them (docs/migrations.md).
    public convenience init<Configuration: Strata.DataStoreConfiguration>(
        for types: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: Configuration
    ) throws {
        try self.init(for: types, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens the store of a backend configuration for an array of model types, first migrating it
    /// with `migrationPlan`.
    public convenience init<Configuration: Strata.DataStoreConfiguration>(
        for types: [any PersistentModel.Type], migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: Configuration
    ) throws {
        guard let migrationPlan else {
            try self.init(for: types, configurations: configurations)
            return
        }
        let plan = try ResolvedMigrationPlan(migrationPlan, models: try ModelSchema(types))
        var configuration = configurations
        configuration.schema = plan.current.storeSchema
        let opened = try openBackend(configuration, plan: plan)
        self.init(modelSchema: plan.current.schema, opened: opened, configurations: [ModelConfiguration(describing: configuration)], migrationPlan: migrationPlan)
    }

    /// Opens the store a SwiftData configuration describes (or the default store) for model types,
    /// first migrating it with `migrationPlan` (SwiftData's `init(for:migrationPlan:configurations:)`).
    public convenience init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: ModelConfiguration...) throws {
        try self.init(modelSchema: ModelSchema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens the store a SwiftData configuration describes for a schema's model types, first
    /// migrating it with `migrationPlan`.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens the store a SwiftData configuration describes for a schema's model types, first
    /// migrating it with `migrationPlan`.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration]) throws {
        try self.init(modelSchema: ModelSchema(ModelTypeRegistry.types(of: givenSchema)), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// The SwiftData-configuration initializers' common end.
    private convenience init(modelSchema: ModelSchema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration]) throws {
        let plan = try migrationPlan.map { try ResolvedMigrationPlan($0, models: modelSchema) }
        try self.init(modelSchema: modelSchema, configurations: configurations, plan: plan)
    }
}
