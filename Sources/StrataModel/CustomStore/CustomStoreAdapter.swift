import Foundation

/// A custom store (SwiftData's `DataStore` protocol) behind Strata's store contract
/// (`Strata.DataStore`), so the model layer and the conformance suite can use it like a backend.
///
/// What it does on the framework's side, as SwiftData does:
/// - **Fetches.** A core fetch becomes a `DataStoreFetchRequest<T>`. When it comes from a
///   `ModelContext`, `T` is the fetched model type and `descriptor` is the context's own
///   `FetchDescriptor<T>`: the real `Predicate<T>` and `SortDescriptor`s, `fetchLimit` and
///   `fetchOffset` (see `ContextFetch`). Otherwise (the conformance suite, the context's lookups
///   by identifier) `T` is the entity's model type or `SchemaRecord`, and `descriptor.predicate` /
///   `sortBy` are stand-ins for the core filter and sort keys, which are in `descriptor.filter` /
///   `sortKeys`. As in SwiftData, the store's answer is trusted; when it throws
///   `DataStoreError.preferInMemoryFilter` / `.preferInMemorySort`, it is asked again without the
///   predicate / the sort (and without the window) and the adapter filters, sorts (ties by primary
///   key) and windows what it returns. An answer longer than `fetchLimit` ignored the window, and
///   gets it applied. Snapshots of other entities are dropped (WWDC24's sample store returns every
///   record for every fetch). A store that answers wrongly is reported by the suite's fetch cases.
/// - **Saves.** A partial update (`SaveRequest.updatedProperties`) is merged over the stored
///   record, with its conflict check, because SwiftData's request carries whole records only.
///   Relationship writes are applied as the store contract orders them (§2: compared with the
///   stored record, as edge additions and removals in request order, both sides), and both sides
///   are sent, as SwiftData's context sends them (Strata's contexts leave inverses to the store).
///   A snapshot with the wrong number of values, or a relationship value of the wrong shape, is
///   refused (`typeMismatch`): sent by name and applied as edges, the store could not tell.
///   Temporary identifiers come back through the result's `remappedIdentifiers`;
///   `snapshotsToReregister` become the result's changed snapshots; records deleted by the store
///   on its own (cascades, which SwiftData's result cannot report) are found by comparing the
///   cascade targets' identifiers before and after the save.
/// - **Threads.** Calls reach the store one at a time (a lock), so a store needs no locking.
///
/// Everything else the contract asks — unique constraints, delete rules, checks of what is sent,
/// atomic saves — is the custom store's job; `strata conformance --backend wwdc-json`
/// shows what WWDC24's sample store leaves undone (docs/writing-a-backend.md).
public final class CustomStoreAdapter<Wrapped: DataStore>: Strata.DataStore, @unchecked Sendable {
    // @unchecked: `wrapped` is touched only while holding `lock`.

    /// The adapter's configuration.
    public typealias Configuration = CustomStoreConfiguration<Wrapped>
    /// The core's positional snapshot.
    public typealias Snapshot = Strata.DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: Configuration
    /// The custom store's identifier.
    public let identifier: String
    /// What the configuration declares.
    public var capabilities: StoreCapabilities { configuration.capabilities }

    let wrapped: Wrapped
    let editingState = EditingState()
    private let lock = NSLock()

    /// Opens the custom store: sets its configuration's schema, validates it, and calls
    /// `init(_:migrationPlan:)`.
    ///
    /// - Throws: what the store throws, as a `StrataError` (`ioFailure` for an error of its own).
    public init(_ configuration: Configuration) throws {
        var wrappedConfiguration = configuration.wrapped
        wrappedConfiguration.schema = configuration.schema
        let store = try Self.mapped { () throws -> Wrapped in
            try wrappedConfiguration.validate()
            return try Wrapped(wrappedConfiguration, migrationPlan: configuration.migrationPlan)
        }
        self.wrapped = store
        self.configuration = configuration
        self.identifier = store.identifier
        store.initializeState(for: editingState)
    }

    deinit { wrapped.invalidateState(for: editingState) }

    /// Runs `body` holding the lock, with the custom store's own errors turned into `StrataError`s.
    func locked<R>(_ body: () throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        return try Self.mapped(body)
    }

    static func mapped<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as StrataError {
            throw error
        } catch let error as DataStoreError {
            throw StrataError(error == .unsupportedFeature ? .unsupported : .invalidRequest, "The custom store \(Wrapped.self) threw DataStoreError.\(error).")
        } catch {
            throw StrataError(.ioFailure, "The custom store \(Wrapped.self) failed: \(error)")
        }
    }

    /// The custom store's snapshot for a framework one.
    func wrappedSnapshot(_ snapshot: DefaultSnapshot) throws -> Wrapped.Snapshot {
        if let same = snapshot as? Wrapped.Snapshot { return same }
        return try JSONDecoder().decode(Wrapped.Snapshot.self, from: JSONEncoder().encode(snapshot))
    }

    /// The framework's snapshot for one of the custom store's.
    func frameworkSnapshot(_ snapshot: Wrapped.Snapshot) throws -> DefaultSnapshot {
        if let same = snapshot as? DefaultSnapshot { return same }
        return try JSONDecoder().decode(DefaultSnapshot.self, from: JSONEncoder().encode(snapshot))
    }

    /// The core record of a custom store's snapshot, or `nil` for an entity the schema lacks.
    func coreSnapshot(_ snapshot: Wrapped.Snapshot) throws -> Strata.DefaultSnapshot? {
        let framework = try frameworkSnapshot(snapshot)
        return schema.entity(named: framework.persistentIdentifier.entityName).map(framework.coreSnapshot)
    }
}

extension CustomStoreAdapter {
    /// Why the framework does not migrate a custom store's data (the suite's migration cases
    /// report it as `unsupported`).
    static var migrationRefusal: String {
        "A custom store (SwiftData's DataStore protocol) migrates in its own init(_:migrationPlan:), which receives the container's plan, as in SwiftData; \(Wrapped.self) keeps its data in a form the framework cannot read the schema of or rewrite."
    }

    /// A custom store does not record its schema where the framework can read it.
    ///
    /// - Throws: `unsupported`, always: the store migrates itself (`init(_:migrationPlan:)`).
    public static func recordedSchema(_ configuration: Configuration) throws -> RecordedSchema? {
        throw StrataError(.unsupported, migrationRefusal, file: configuration.name)
    }

    /// The framework does not migrate a custom store's data.
    ///
    /// - Throws: `unsupported`, always: the store migrates itself (`init(_:migrationPlan:)`).
    public static func migrateStore(_ configuration: Configuration, _ migration: SchemaMigration) throws {
        throw StrataError(.unsupported, migrationRefusal, file: configuration.name)
    }
}
