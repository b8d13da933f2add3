/// SwiftData's custom-store protocol: a store an app writes itself, used through `ModelContainer`
/// and `ModelContext` like a built-in one.
///
/// This is SwiftData's `DataStore` (iOS 18), with its names and meaning, so a store written for
/// SwiftData compiles with `import StrataModel` in place of `import SwiftData`. It is not the core's
/// store contract (`Strata.DataStore`, which every Strata backend implements): the model layer
/// runs a store of this protocol through `CustomStoreAdapter`, a `Strata.DataStore` that turns the
/// core's fetches and saves into `DataStoreFetchRequest`s and `DataStoreSaveChangesRequest`s, does
/// in memory what the store asks it to (`DataStoreError.preferInMemoryFilter` /
/// `.preferInMemorySort`) and maps identifiers back. See docs/models.md, "Custom stores".
///
/// ```swift
/// final class JSONStore: DataStore {
///     typealias Configuration = JSONStoreConfiguration
///     typealias Snapshot = DefaultSnapshot
///     …
///     func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
///         if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
///         …
///     }
/// }
/// let container = try ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(name: "trips", fileURL: url))
/// ```
///
/// Who calls: the adapter, one call at a time (it serializes access, so a store needs no locking
/// of its own). The store is responsible for what Strata's contract asks of any store (unique
/// constraints, delete rules, atomic saves); `strata-custom-store conformance` shows which rules a
/// store breaks.
public protocol DataStore: AnyObject {
    /// The store's configuration type.
    associatedtype Configuration: DataStoreConfiguration where Configuration.Store == Self
    /// The snapshot type the store takes and returns (most stores use `DefaultSnapshot`).
    associatedtype Snapshot: DataStoreSnapshot

    /// Opens the store. The configuration's `schema` is filled in by the container; `migrationPlan`
    /// is the plan the container was given, if any.
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws

    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// The store's identifier: the `storeIdentifier` of every permanent identifier it makes.
    var identifier: String { get }
    /// The schema of the data.
    var schema: Schema { get }

    /// The snapshots of the records `request` describes, and any related ones the store has at hand.
    ///
    /// Throw `DataStoreError.preferInMemoryFilter` (or `.preferInMemorySort`) to have the framework
    /// ask again without the predicate (the sort) and apply it in memory.
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot>
    /// How many records `request` describes. Has a default: the count of `fetch`'s result.
    func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int
    /// The identifiers of the records `request` describes. Has a default: from `fetch`'s result.
    func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    /// Applies the inserts, updates and deletes of `request`; returns the permanent identifier of
    /// every inserted record and any snapshot the store changed on its own.
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot>

    /// A context with this editing state starts using the store. Has a default that does nothing.
    func initializeState(for editingState: EditingState)
    /// A context with this editing state stops using the store. Has a default that does nothing.
    func invalidateState(for editingState: EditingState)
    /// Removes every record. Has a default that throws `DataStoreError.unsupportedFeature`.
    func erase() throws
    /// Snapshots the store holds in memory for these identifiers. Has a default that returns none.
    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws -> [PersistentIdentifier: Snapshot]
}

extension DataStore {
    /// The number of snapshots `fetch` returns for `request`.
    public func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        try fetch(request).fetchedSnapshots.count
    }

    /// The identifiers of the snapshots `fetch` returns for `request`.
    public func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] {
        try fetch(request).fetchedSnapshots.map(\.persistentIdentifier)
    }

    /// Does nothing.
    public func initializeState(for editingState: EditingState) {}
    /// Does nothing.
    public func invalidateState(for editingState: EditingState) {}

    /// Throws `DataStoreError.unsupportedFeature`.
    public func erase() throws { throw DataStoreError.unsupportedFeature }

    /// No cached snapshots.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws -> [PersistentIdentifier: Snapshot] {
        [:]
    }
}
