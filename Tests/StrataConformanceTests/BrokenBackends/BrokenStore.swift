import Foundation
import Strata
import StrataMemory

/// A deliberate defect layered on the memory backend; the suite must catch each one.
protocol StoreFlaw: Sendable {
    init()
    /// The schema the inner memory store really uses (a flaw may weaken it).
    func innerSchema(_ schema: Schema) -> Schema
    /// How the flawed store saves.
    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot>
    /// How the flawed store fetches.
    func fetch(_ descriptor: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot]
    /// How the flawed store looks one record up.
    func snapshot(for id: PersistentIdentifier, inner: MemoryStore) throws -> DefaultSnapshot?
    /// What the flawed store declares.
    func capabilities(inner: MemoryStore) -> StoreCapabilities
}

extension StoreFlaw {
    func innerSchema(_ schema: Schema) -> Schema { schema }
    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot> { try inner.save(request) }
    func fetch(_ descriptor: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] { try inner.fetch(descriptor) }
    func snapshot(for id: PersistentIdentifier, inner: MemoryStore) throws -> DefaultSnapshot? { try inner.snapshot(for: id) }
    func capabilities(inner: MemoryStore) -> StoreCapabilities { inner.capabilities }
}

struct BrokenConfiguration<Flaw: StoreFlaw>: DataStoreConfiguration {
    typealias Store = BrokenStore<Flaw>
    var name: String
    var schema: Schema
    var isReadOnly = false
}

/// A memory store with one flaw; snapshots are moved between the outer and inner schema by entity name.
final class BrokenStore<Flaw: StoreFlaw>: DataStore {
    typealias Snapshot = DefaultSnapshot
    let configuration: BrokenConfiguration<Flaw>
    let inner: MemoryStore
    let flaw: Flaw

    init(_ configuration: BrokenConfiguration<Flaw>) throws {
        self.configuration = configuration
        self.flaw = Flaw()
        self.inner = try MemoryStore(MemoryStoreConfiguration(name: configuration.name, schema: flaw.innerSchema(configuration.schema), isReadOnly: configuration.isReadOnly))
    }

    var identifier: String { inner.identifier }
    var capabilities: StoreCapabilities { flaw.capabilities(inner: inner) }

    private func rebase(_ s: DefaultSnapshot, to schema: Schema) -> DefaultSnapshot {
        guard let entity = schema.entity(named: s.entity.name) else { return s }
        return DefaultSnapshot(entity: entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributes, relationships: s.relationships)
    }

    func fetch(_ d: FetchDescriptor) throws -> [DefaultSnapshot] {
        try flaw.fetch(d, inner: inner).map { rebase($0, to: schema) }
    }
    func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? {
        try flaw.snapshot(for: id, inner: inner).map { rebase($0, to: schema) }
    }
    func fetchCount(_ d: FetchDescriptor) throws -> Int { try fetch(d).count }
    func fetchIdentifiers(_ d: FetchDescriptor) throws -> [PersistentIdentifier] { try fetch(d).map(\.persistentIdentifier) }

    func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        let innerSchema = inner.schema
        let moved = SaveRequest(
            inserted: request.inserted.map { rebase($0, to: innerSchema) },
            updated: request.updated.map { rebase($0, to: innerSchema) },
            deleted: request.deleted.map { rebase($0, to: innerSchema) })
        var result = try flaw.save(moved, inner: inner)
        result.changedSnapshots = result.changedSnapshots.mapValues { rebase($0, to: schema) }
        return result
    }

    static func factoryName() -> String { "\(Flaw.self)" }
}

extension BrokenStore {
    /// The inner memory store's record.
    static func recordedSchema(_ configuration: BrokenConfiguration<Flaw>) throws -> RecordedSchema? {
        try MemoryStore.recordedSchema(MemoryStoreConfiguration(name: configuration.name, schema: configuration.schema))
    }

    /// The inner memory store's migration (a flaw weakens saves and fetches, not migrations).
    static func migrateStore(_ configuration: BrokenConfiguration<Flaw>, _ migration: SchemaMigration) throws {
        try MemoryStore.migrateStore(MemoryStoreConfiguration(name: configuration.name, schema: configuration.schema), migration)
    }
}
