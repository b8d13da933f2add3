import Foundation

extension ModelContainer {
    /// Opens the store a SwiftData configuration describes, for the schema's model types.
    ///
    /// ```swift
    /// let schema = Schema([Trip.self, BucketListItem.self])
    /// let container = try ModelContainer(for: schema, configurations: [ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)])
    /// ```
    ///
    /// With no configuration, SQLite at the default location (`ModelConfiguration().url`:
    /// `default.store`). Several configurations each hold a group of the entities in a store of
    /// their own (`ModelConfigurationGroups` says which; no relationship may cross stores).
    ///
    /// - Throws: `invalidSchema` for a schema not made from model types or made from types that do
    ///   not form a valid schema, a configuration schema naming entities the container's lacks, an
    ///   entity no configuration holds or a relationship between two configurations' entities;
    ///   `unsupported` for CloudKit sync; whatever the backend throws on open.
    public convenience init(for givenSchema: Schema, configurations: [ModelConfiguration]) throws {
        try self.init(modelSchema: ModelSchema(ModelTypeRegistry.types(of: givenSchema)), configurations: configurations)
    }

    /// Opens the store of each configuration for the models' schema, migrated with `plan` when
    /// there is one (then the schema is the plan's current version's, and there is one configuration).
    convenience init(modelSchema: ModelSchema, configurations: [ModelConfiguration], plan: ResolvedMigrationPlan? = nil) throws {
        for configuration in configurations {
            guard let own = configuration.schema else { continue }
            let missing = own.entities.map(\.name).filter { modelSchema.schema.entity(named: $0) == nil }
            guard missing.isEmpty else {
                throw StrataError(.invalidSchema, "ModelConfiguration '\(configuration.name)' names entities the container's schema lacks: \(missing.joined(separator: ", ")). Add their model types to the container.", entity: missing.first)
            }
        }
        guard configurations.count > 1 else {
            let configuration = configurations.first ?? ModelConfiguration()
            let opened = try openStore(configuration, schema: plan?.current.storeSchema ?? modelSchema.schema, plan: plan, models: modelSchema)
            self.init(modelSchema: plan?.current.schema ?? modelSchema, opened: opened, configurations: [configuration], migrationPlan: plan?.type)
            return
        }
        guard plan == nil else {
            throw StrataError(.unsupported, "A migration plan with several configurations (\(configurations.map(\.name).joined(separator: ", "))) is not supported: migrations run on one store. Migrate each store with a container of its own.")
        }
        let groups = try ModelConfigurationGroups(configurations, schema: modelSchema.schema)
        let opened = try zip(groups.holders, groups.schemas).map { try openStore(configurations[$0], schema: $1, models: modelSchema) }
        self.init(modelSchema: modelSchema, opened: RoutedModelStore.opened(opened, schemas: groups.schemas, containerSchema: modelSchema.schema), configurations: Set(configurations))
    }

    /// Opens the store a SwiftData configuration describes (or the default store), for a schema.
    public convenience init(for givenSchema: Schema, configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, configurations: configurations)
    }

    /// Opens the store a SwiftData configuration describes (or the default store), for model types
    /// and every type their relationships reach: `ModelContainer(for: Trip.self)`.
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: ModelConfiguration...) throws {
        try self.init(modelSchema: ModelSchema(forTypes), configurations: configurations)
    }
}
