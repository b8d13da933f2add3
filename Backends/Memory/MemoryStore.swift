@_spi(StrataEngine) import Strata

/// The reference backend: records in memory, on the shared engine, passing the whole conformance suite.
///
/// What tests and previews use. It has no file; stores opened under the same name in one process
/// share their data, so a reopened store sees what was saved. Saves are atomic and serialized;
/// fetches see the last committed state.
///
/// ```swift
/// let store = try MemoryStore(MemoryStoreConfiguration(name: "preview", schema: schema))
/// ```
public final class MemoryStore: HistoryRecordingStore {
    /// Snapshots are the core's default.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: MemoryStoreConfiguration
    private let engine: RecordEngine

    /// Opens the named store, creating it if needed (a read-only open never creates).
    ///
    /// - Throws: `schemaMismatch` if the name holds data of another schema; `ioFailure` for a
    ///   read-only open of a name no store has.
    public init(_ configuration: MemoryStoreConfiguration) throws {
        self.configuration = configuration
        self.engine = try MemoryStoreRegistry.open(configuration.name, schema: configuration.schema, existingOnly: configuration.isReadOnly)
    }

    /// The identifier in every permanent identifier this store makes.
    public var identifier: String { engine.storeIdentifier }

    /// Everything: the memory store supports the whole contract.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess, .history, .chosenKeys]
    }

    /// Fetches through the shared engine.
    public func fetch(_ descriptor: FetchDescriptor) throws -> [DefaultSnapshot] { try engine.fetch(descriptor) }
    /// Looks one record up by identifier in the shared engine: no descriptor, no result array.
    public func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? { try engine.snapshot(for: id) }
    /// Counts through the shared engine.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int { try engine.fetchCount(descriptor) }
    /// Lists identifiers through the shared engine.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        try engine.fetchIdentifiers(descriptor)
    }

    /// Saves through the shared engine (which every store of this name uses).
    ///
    /// - Throws: `readOnlyStore` if this store was opened read-only; the contract's errors.
    public func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("memory store '\(configuration.name)'", toDo: "save", file: configuration.name)
        }
        return try engine.save(request, recordsHistory: configuration.recordsHistory)
    }

    /// The recorded history of every store of this name, through the shared engine.
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] { try engine.fetchHistory(query) }

    /// Removes history up to and including `token` for every store of this name.
    ///
    /// - Throws: `readOnlyStore` if this store was opened read-only; `invalidRequest` for another
    ///   store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("memory store '\(configuration.name)'", toDo: "delete history", file: configuration.name)
        }
        try engine.deleteHistory(through: token)
    }

    /// The schema recorded under the configuration's name, or `nil` when the process has none.
    public static func recordedSchema(_ configuration: MemoryStoreConfiguration) throws -> RecordedSchema? {
        MemoryStoreRegistry.recorded(configuration.name)
    }

    /// Migrates the named store's records in one step (the registry entry is replaced whole).
    /// Stores already open under the name keep reading the old state; open them again.
    ///
    /// - Throws: the migration's errors (`uniqueConstraintViolation`…), with nothing changed.
    public static func migrateStore(_ configuration: MemoryStoreConfiguration, _ migration: SchemaMigration) throws {
        try migrateByRewriting(configuration, migration)
    }

    /// Deletes the named store's data from the process.
    public static func destroy(name: String) { MemoryStoreRegistry.remove(name) }
}

/// A whole staged migration path in one step: the registry entry is replaced whole.
@_spi(StrataEngine) extension MemoryStore: StateMigratable {
    /// Replaces the named store's records by `rewrite(records)` at `destination`, in one step.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: MemoryStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try MemoryStoreRegistry.migrate(configuration.name, from: source, to: destination, rewrite: rewrite)
    }
}
