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
    /// `default.store`). A container opens one store: SwiftData's several configurations, each
    /// holding some of the entities in a store of its own, are refused with `unsupported`.
    ///
    /// - Throws: `invalidSchema` for a schema not made from model types or made from types that do
    ///   not form a valid schema, or a configuration schema naming entities the container's lacks;
    ///   `unsupported` for several configurations or CloudKit sync; whatever the backend throws on
    ///   open.
    public convenience init(for givenSchema: Schema, configurations: [ModelConfiguration]) throws {
        try self.init(modelSchema: ModelSchema(ModelTypeRegistry.types(of: givenSchema)), configurations: configurations)
    }

    /// Opens the store of at most one configuration for the models' schema, migrated with `plan`
    /// when there is one (then the schema is the plan's current version's).
    convenience init(modelSchema: ModelSchema, configurations: [ModelConfiguration], plan: ResolvedMigrationPlan? = nil) throws {
        guard configurations.count <= 1 else {
            throw StrataError(.unsupported, "A container opens one store; \(configurations.count) configurations (\(configurations.map(\.name).joined(separator: ", "))) would each hold some entities in a store of their own, which Strata does not do. Use one configuration, or one container per store.")
        }
        let configuration = configurations.first ?? ModelConfiguration()
        if let own = configuration.schema {
            let missing = own.entities.map(\.name).filter { modelSchema.schema.entity(named: $0) == nil }
            guard missing.isEmpty else {
                throw StrataError(.invalidSchema, "ModelConfiguration '\(configuration.name)' names entities the container's schema lacks: \(missing.joined(separator: ", ")). Add their model types to the container.", entity: missing.first)
            }
        }
        let opened = try openStore(configuration, schema: plan?.current.storeSchema ?? modelSchema.schema, plan: plan)
        self.init(modelSchema: plan?.current.schema ?? modelSchema, opened: opened, configurations: [configuration], migrationPlan: plan?.type)
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
