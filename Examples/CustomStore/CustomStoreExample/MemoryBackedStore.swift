import Foundation
import StrataMemory
import StrataModel

/// A custom store written to SwiftData's `DataStore` protocol that keeps its records in Strata's
/// memory backend, which does everything the store contract asks (unique constraints, delete
/// rules, atomic saves). It is the suite's control for the custom-store path: through
/// `CustomStoreAdapter` it passes what WWDC24's JSON store fails, so a failure the suite reports
/// for a custom store is the store's, not the adapter's (`strata conformance --backend
/// swiftdata-memory`).
///
/// Like WWDC24's store it asks the framework to filter and sort and returns every record of every
/// entity; what it adds is the memory backend behind `save`.
public final class MemoryBackedStore: DataStore {
    /// Its configuration type.
    public typealias Configuration = MemoryBackedStoreConfiguration
    /// It exchanges the framework's snapshots.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration it was opened with.
    public let configuration: MemoryBackedStoreConfiguration
    /// The schema.
    public let schema: Schema
    private let store: MemoryStore

    /// The memory store's identifier.
    public var identifier: String { store.identifier }

    /// Opens (or finds, by name, in this process) the memory store.
    public init(_ configuration: MemoryBackedStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema ?? .empty
        self.store = try MemoryStore(MemoryStoreConfiguration(name: configuration.name, schema: schema))
    }

    /// Every record of every entity; a predicate or a sort is left to the framework.
    public func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        var all: [DefaultSnapshot] = []
        for entity in schema.entities {
            all += try store.fetch(Strata.FetchDescriptor(entity: entity.name)).map(DefaultSnapshot.init)
        }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: all, relatedSnapshots: [:])
    }

    /// One atomic save of the memory backend.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        func core(_ snapshot: DefaultSnapshot) throws -> Strata.DefaultSnapshot {
            try snapshot.coreSnapshot(schema.requireEntity(snapshot.persistentIdentifier.entityName))
        }
        let result = try store.save(SaveRequest(
            inserted: request.inserted.map(core), updated: request.updated.map(core), deleted: request.deleted.map(core)))
        return DataStoreSaveChangesResult(
            for: identifier, remappedIdentifiers: result.remappedIdentifiers.dictionary,
            snapshotsToReregister: result.changedSnapshots.mapValues(DefaultSnapshot.init))
    }
}

/// Names the memory store a `MemoryBackedStore` opens.
public struct MemoryBackedStoreConfiguration: DataStoreConfiguration {
    /// The store this configuration opens.
    public typealias Store = MemoryBackedStore
    /// The memory store's name (stores of one name share their records within a process).
    public var name: String
    /// The schema, set by the container.
    public var schema: Schema?

    /// A configuration for the memory store named `name`.
    public init(name: String, schema: Schema? = nil) {
        self.name = name
        self.schema = schema
    }
}
