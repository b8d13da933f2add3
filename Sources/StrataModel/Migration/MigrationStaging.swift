@_spi(StrataEngine) import Strata

import Synchronization

/// A store's records copied into memory for a migration plan's run: the core's `RecordEngine`,
/// with the store's primary keys and store identifier, so a stage's code sees the records as they
/// are and nothing reaches the store until every stage has run.
///
/// Stages run here first (custom stages' `willMigrate` and `didMigrate`, and every schema change,
/// through `StoreState.migrated(by:)`); the store then gets, per stage, the net change of
/// `willMigrate` (one save at the old schema), the schema change (`migrateStore`, atomic) and the
/// net change of `didMigrate` (one save at the new schema). A thrown error or a refused save in any
/// stage therefore leaves the store as it was.
final class MigrationStaging: ModelStore {
    /// The engine holding the staged records; replaced by each schema change.
    private let current: Mutex<RecordEngine>
    private var engine: RecordEngine { current.withLock { $0 } }

    /// Loads every record of `store`, which holds `schema`.
    init(loading store: any ModelStore, schema: Schema) throws {
        var state = StoreState(schema: schema, storeIdentifier: store.identifier)
        for entity in schema.entities {
            for record in try store.fetch(Strata.FetchDescriptor(entity: entity.name)) {
                let links = record.relationshipValues.map { value -> Link in
                    switch value {
                    case .toOne(let id): .one(id?.primaryKey)
                    case .toMany(let ids): .many(ids.map(\.primaryKey))
                    }
                }
                try state.load(entity, key: record.persistentIdentifier.primaryKey, record: StoredRecord(attributes: record.attributeValues, links: links))
            }
        }
        try state.finishLoading()
        current = Mutex(RecordEngine(state: state))
    }

    /// Stages records a backend read itself (`StateMigratable`): keys and key counters as stored.
    init(state: StoreState) {
        current = Mutex(RecordEngine(state: state))
    }

    /// The staged records now.
    var state: StoreState { engine.state }

    /// Applies a schema change to the staged records.
    func migrate(by migration: SchemaMigration) throws {
        let migrated = RecordEngine(state: try engine.state.migrated(by: migration))
        current.withLock { $0 = migrated }
    }

    // MARK: ModelStore

    var identifier: String { engine.storeIdentifier }
    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [StoredSnapshot] { try engine.fetch(descriptor, as: Strata.DefaultSnapshot.self).map { .plain($0) } }
    func snapshot(for id: PersistentIdentifier) throws -> StoredSnapshot? { try engine.snapshot(for: id).map { .plain($0) } }
    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int { try engine.fetchCount(descriptor) }
    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier] { try engine.fetchIdentifiers(descriptor) }
    func save(_ request: SaveRequest<Strata.DefaultSnapshot>) throws -> SaveResult<Strata.DefaultSnapshot> { try engine.save(request) }
}
