/// The stores of a container opened with several `ModelConfiguration`s, behind one `ModelStore`:
/// each entity's records live in the store of the configuration that holds the entity.
///
/// Each store is opened with the part of the container's schema its configuration holds (its own
/// `EntitySchema`s, numbered from zero), so snapshots are rewritten to the store's entities on the
/// way in and back to the container's on the way out. No relationship crosses stores
/// (`ModelConfigurationGroups` refuses such a schema), so every request and answer concerns one
/// store. A save spanning stores is split by the context, one atomic save per store
/// (`ModelContext.save()`); this type refuses one that reaches it unsplit.
final class RoutedModelStore: ModelStore {
    /// One store per configuration, in configuration order.
    let stores: [any ModelStore]
    /// The store (index into `stores`) of each entity name.
    let storeOfEntity: [String: Int]
    /// The container's entities, by name (what answers are rewritten to).
    private let containerEntities: [String: EntitySchema]
    /// Each store's entities, by name (what requests are rewritten to).
    private let storeEntities: [[String: EntitySchema]]

    init(stores: [any ModelStore], schemas: [Schema], containerSchema: Schema) {
        self.stores = stores
        var storeOfEntity: [String: Int] = [:]
        for (i, schema) in schemas.enumerated() {
            for entity in schema.entities { storeOfEntity[entity.name] = i }
        }
        self.storeOfEntity = storeOfEntity
        self.containerEntities = Dictionary(uniqueKeysWithValues: containerSchema.entities.map { ($0.name, $0) })
        self.storeEntities = schemas.map { schema in Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, $0) }) }
    }

    /// The stores opened for a container's configurations, routed as one (the first store's
    /// backend configuration stands for them in `ModelContainer.configuration`).
    static func opened(_ opened: [OpenedStore], schemas: [Schema], containerSchema: Schema) -> OpenedStore {
        let store = RoutedModelStore(stores: opened.map(\.store), schemas: schemas, containerSchema: containerSchema)
        return OpenedStore(store: store, configuration: opened[0].configuration)
    }

    /// The first store's identifier (each store's identifiers carry their own).
    var identifier: String { stores[0].identifier }
    /// Every store's wake sources.
    func makeWakeSources() throws -> [any StoreWakeSource] {
        var sources: [any StoreWakeSource] = []
        do {
            for store in stores { sources += try store.makeWakeSources() }
        } catch {
            for source in sources { source.close() }
            throw error
        }
        return sources
    }
    /// Every store looks.
    func lookForCommits() throws { for store in stores { try store.lookForCommits() } }

    /// The index of the store holding `entity`.
    func storeIndex(of entity: String) throws -> Int {
        guard let index = storeOfEntity[entity] else {
            throw StrataError(.unknownEntity, "No configuration of this container holds entity '\(entity)'.", entity: entity)
        }
        return index
    }

    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [StoredSnapshot] {
        try stores[storeIndex(of: descriptor.entityName)].fetch(descriptor).map { .plain(toContainer($0.plain)) }
    }

    func snapshot(for id: PersistentIdentifier) throws -> StoredSnapshot? {
        try stores[storeIndex(of: id.entityName)].snapshot(for: id).map { .plain(toContainer($0.plain)) }
    }

    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int {
        try stores[storeIndex(of: descriptor.entityName)].fetchCount(descriptor)
    }

    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier] {
        try stores[storeIndex(of: descriptor.entityName)].fetchIdentifiers(descriptor)
    }

    /// Sends a save to the one store its records live in.
    ///
    /// - Throws: `invalidRequest` for a request touching several stores (the context splits those).
    func save(_ request: SaveRequest<Strata.DefaultSnapshot>) throws -> SaveResult<Strata.DefaultSnapshot> {
        let all = request.inserted + request.updated + request.deleted
        let indices = Set(try all.map { try storeIndex(of: $0.entity.name) })
        guard indices.count <= 1 else {
            throw StrataError(.invalidRequest, "One store save cannot span several configurations' stores; save each store's records on their own.")
        }
        guard let index = indices.first else { return try stores[0].save(request) }
        let entities = storeEntities[index]
        func toStore(_ s: Strata.DefaultSnapshot) -> Strata.DefaultSnapshot {
            Strata.DefaultSnapshot(entity: entities[s.entity.name] ?? s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributes, relationships: s.relationships)
        }
        let routed = SaveRequest(
            inserted: request.inserted.map(toStore), updated: request.updated.map(toStore), deleted: request.deleted.map(toStore),
            updatedProperties: request.updatedProperties)
        var result = try stores[index].save(routed)
        result.changedSnapshots = result.changedSnapshots.mapValues(toContainer)
        return result
    }

    private func toContainer(_ s: Strata.DefaultSnapshot) -> Strata.DefaultSnapshot {
        Strata.DefaultSnapshot(entity: containerEntities[s.entity.name] ?? s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributes, relationships: s.relationships)
    }
}
