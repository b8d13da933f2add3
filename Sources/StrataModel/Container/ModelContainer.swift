import Synchronization

/// The schema of a set of model types and the store that holds their records, opened through any
/// backend's own configuration.
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self, configurations: SQLiteStoreConfiguration(url: url, schema: .empty))
/// let context = ModelContext(container)
/// ```
///
/// The container fills in the configuration's schema with the one derived from the model types
/// (related types included), so the schema passed in the configuration is ignored. A container is
/// `Sendable`: share it between actors, give each its own `ModelContext`.
public final class ModelContainer: Sendable {
    /// The schema derived from the model types.
    public let schema: Schema
    /// The configuration the store was opened with (its schema replaced by `schema`); with several
    /// `ModelConfiguration`s, the first store's.
    public let configuration: any Strata.DataStoreConfiguration
    /// SwiftData's view of the configuration: the `ModelConfiguration` given, or one describing the
    /// backend configuration (its name, location and `allowsSave`): one per store, at least one.
    public let configurations: Set<ModelConfiguration>
    /// The plan the store was migrated with on open (`ModelContainer(for:migrationPlan:configurations:)`), if any.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    let modelSchema: ModelSchema
    let store: any ModelStore
    private let subscribers = Mutex<[Int: AsyncStream<ModelChanges>.Continuation]>([:])
    private let nextSubscriber = Atomic<Int>(0)
    /// The main context, made on first use on the main actor and read only there
    /// (`ModelContainer+MainContext.swift`).
    nonisolated(unsafe) var mainContextStorage: ModelContext?

    /// Opens the store described by `configurations` for the given model types.
    ///
    /// - Throws: `invalidSchema` when the model types do not form a valid schema; whatever the
    ///   backend throws on open (`schemaMismatch` for a store of another schema, `corruptStore`…).
    public convenience init<Configuration: Strata.DataStoreConfiguration>(for types: any PersistentModel.Type..., configurations: Configuration) throws {
        try self.init(for: types, configurations: configurations)
    }

    /// Opens the store described by `configurations` for an array of model types.
    public convenience init<Configuration: Strata.DataStoreConfiguration>(for types: [any PersistentModel.Type], configurations: Configuration) throws {
        let modelSchema = try ModelSchema(types)
        var configuration = configurations
        configuration.schema = modelSchema.schema
        try self.init(modelSchema: modelSchema, opened: openBackend(configuration, models: modelSchema), configurations: [ModelConfiguration(describing: configuration)])
    }

    /// Every initializer ends here: the models' schema and the store opened for it.
    init(modelSchema: ModelSchema, opened: OpenedStore, configurations: Set<ModelConfiguration>, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) {
        self.modelSchema = modelSchema
        self.schema = modelSchema.schema
        self.configuration = opened.configuration
        self.store = opened.store
        self.configurations = configurations
        self.migrationPlan = migrationPlan
    }

    /// The store's identifier, part of every permanent identifier.
    public var storeIdentifier: String { store.identifier }

    /// Every save committed through a context of this container, from now on, as they happen.
    ///
    /// Each call returns a new stream; it ends when the caller stops iterating (or the container
    /// goes away). Saves made by other processes or other containers on the same store are not seen.
    public func changes() -> AsyncStream<ModelChanges> {
        let (stream, continuation) = AsyncStream<ModelChanges>.makeStream(bufferingPolicy: .unbounded)
        let key = nextSubscriber.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: key) } }
        return stream
    }

    func publish(_ changes: ModelChanges) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(changes) }
    }

    deinit {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}

/// One committed save: the identifiers it inserted, updated (including records the store changed
/// on its own, such as maintained inverses) and deleted (including cascades).
public struct ModelChanges: Sendable, Hashable {
    /// Records inserted, by permanent identifier.
    public var inserted: [PersistentIdentifier]
    /// Records updated.
    public var updated: [PersistentIdentifier]
    /// Records deleted.
    public var deleted: [PersistentIdentifier]
}

extension Schema {
    /// A schema with no entities: the placeholder to put in a backend configuration handed to
    /// `ModelContainer`, which replaces it with the models' schema.
    public static var empty: Schema {
        // An empty entity list is always valid.
        (try? Schema(entities: [])) ?? { preconditionFailure("the empty schema is valid") }()
    }
}
