/// The contract every Strata backend fulfils; third parties are meant to conform.
///
/// A store is opened from its configuration, holds records of the configuration's schema, and answers
/// fetches and atomic saves. It must be safe to share between threads: saves are serialized, and a
/// fetch sees the last committed state, never a half-applied save. `docs/store-contract.md` lists every
/// rule; the `StrataConformance` suite checks them.
///
/// Callers: applications (directly or through a higher-level context), the conformance suite, and
/// the `strata` tool. A store releases its resources (file handles, locks) when its last reference
/// goes away.
///
/// ```swift
/// let store = try MemoryStore(MemoryStoreConfiguration(name: "demo", schema: schema))
/// let item = try DefaultSnapshot.inserting(schema.entity(named: "Item")!, values: ["name": "a"])
/// let result = try store.save(SaveRequest(inserted: [item]))
/// let all = try store.fetch(FetchDescriptor(entity: "Item"))
/// ```
public protocol DataStore: AnyObject, Sendable {
    /// How this store is configured and located.
    associatedtype Configuration: DataStoreConfiguration where Configuration.Store == Self
    /// The snapshot type this store takes and returns.
    associatedtype Snapshot: DataStoreSnapshot

    /// Opens (or creates) the store described by `configuration`.
    ///
    /// - Throws: `schemaMismatch` if the location holds data of another schema, `corruptStore` if it
    ///   holds something unreadable, `storeLocked` if another writer holds it.
    init(_ configuration: Configuration) throws

    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// The store's identifier, part of every permanent identifier it makes; stable across reopen.
    var identifier: String { get }
    /// What this backend supports beyond the required contract.
    var capabilities: StoreCapabilities { get }

    /// The snapshots matching `descriptor`, in the contract's order.
    func fetch(_ descriptor: FetchDescriptor) throws -> [Snapshot]
    /// How many records match `descriptor` (limit and offset applied).
    func fetchCount(_ descriptor: FetchDescriptor) throws -> Int
    /// The identifiers of the records matching `descriptor`, in the contract's order.
    func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier]
    /// The record `id` names, or `nil` when this store does not hold it (deleted, never made,
    /// temporary, another store's). The point lookup: exactly what
    /// `fetch(FetchDescriptor(entity: id.entityName, predicate: .identifierIn([id]))).first` returns,
    /// errors included (`unknownEntity` for an entity the schema lacks), without building a
    /// descriptor and a one-element array. A default implementation does exactly that fetch, so a
    /// backend need not write it; one with a cheaper keyed read overrides it.
    func snapshot(for id: PersistentIdentifier) throws -> Snapshot?
    /// Applies `request` atomically: all of it or, on any error, none of it.
    func save(_ request: SaveRequest<Snapshot>) throws -> SaveResult<Snapshot>

    /// The schema recorded in the store at `configuration`'s location (whose `schema` is ignored),
    /// read without opening the store at a schema; `nil` when no store is there. Never writes.
    /// The default throws `unsupported` (see `DataStore+Migration.swift`).
    static func recordedSchema(_ configuration: Configuration) throws -> RecordedSchema?
    /// Migrates the store at `configuration`'s location from `migration.source` to
    /// `migration.destination`, atomically: afterwards it holds the destination schema and records
    /// it, or (on any error, or a crash) it is unchanged. The default copies and swaps
    /// (`CopyAndSwapMigratable`) or throws `unsupported`.
    static func migrateStore(_ configuration: Configuration, _ migration: SchemaMigration) throws
}

extension DataStore {
    /// The schema the store was opened with.
    public var schema: Schema { configuration.schema }

    /// The point lookup through `fetch`, for backends without a keyed read of their own.
    public func snapshot(for id: PersistentIdentifier) throws -> Snapshot? {
        try fetch(FetchDescriptor(entity: id.entityName, predicate: .identifierIn([id]))).first
    }
}

/// Describes where and how to open a store; each backend has its own.
///
/// The conformance suite makes configurations through a factory the backend author writes, so the
/// protocol asks only for what every backend has.
public protocol DataStoreConfiguration: Sendable {
    /// The store type this configuration opens.
    associatedtype Store: DataStore where Store.Configuration == Self
    /// A human-readable name (a file name, a registry key…).
    var name: String { get }
    /// The schema of the data. Settable so a layer above (the model container) can fill in the
    /// schema it derives from model types.
    var schema: Schema { get set }
    /// Opens the store for reading only: opening never creates, repairs or removes a file, a missing
    /// store is an error instead of a new empty one, and every save fails with `readOnlyStore`.
    /// File backends let several readers open beside one writer.
    var isReadOnly: Bool { get set }
    /// Whether saves record persisted history (`HistoryRecordingStore`): opt-in, so a store that
    /// does not want it pays nothing. Has a default that is always `false`.
    var recordsHistory: Bool { get set }
}
