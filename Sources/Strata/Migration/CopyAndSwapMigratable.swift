/// The generic migration path for a backend that cannot migrate its files in place: read every
/// record at the old schema, write a new store at the new schema beside it, swap the two atomically.
///
/// A third-party backend conforms by naming a staging location and providing the atomic swap;
/// `DataStore.migrateStore`'s default then uses this path. Costs: the whole store is copied (time
/// and space O(store)), and records get new primary keys and the store a new identifier (the copy
/// is written through `save`, which assigns keys), so identifiers kept from before the migration
/// do not resolve afterwards. Built-in backends migrate in place and keep both.
public protocol CopyAndSwapMigratable: DataStore {
    /// A configuration for a new, empty store of this backend at `schema`, beside the store at
    /// `configuration`, at a location nothing else uses (anything left there by an interrupted
    /// migration may be removed).
    static func stagingConfiguration(for configuration: Configuration, schema: Schema) throws -> Configuration
    /// Replaces the store at `configuration` with the one at `staging` in one atomic step (a
    /// rename): a crash leaves one or the other, never a mix.
    static func replaceStore(_ configuration: Configuration, with staging: Configuration) throws
    /// Removes whatever is at `staging` (after a failed copy); errors are ignored.
    static func removeStore(_ staging: Configuration)
}

extension CopyAndSwapMigratable {
    /// `copyAndSwap` through a configuration of unknown static type (`migrateStore`'s default
    /// calls it on an existential metatype).
    static func copyAndSwap(anyConfiguration: any DataStoreConfiguration, _ migration: SchemaMigration) throws {
        try copyAndSwap(ownConfiguration(anyConfiguration), migration)
    }

    /// Copies the store at `configuration` into a staging store at the migration's destination
    /// schema, in one save, and swaps it in; the source store stays open (holding its writer lock)
    /// until the swap, so no save is lost between copy and swap.
    ///
    /// - Throws: the open's errors (`schemaMismatch` when the store is not at `migration.source`),
    ///   the copy's save errors (`uniqueConstraintViolation` when a new constraint collides…);
    ///   the store is unchanged then.
    public static func copyAndSwap(_ configuration: Configuration, _ migration: SchemaMigration) throws {
        var old = configuration
        old.schema = migration.source
        let source = try Self(old)
        let staging = try stagingConfiguration(for: configuration, schema: migration.destination)
        removeStore(staging)
        do {
            // Every record gets a temporary identifier first, so links between them can be named.
            var temporary: [Int: [Int64: PersistentIdentifier]] = [:]
            var rows: [(entity: Int, id: PersistentIdentifier, attributes: [Value], relationships: [RelationshipValue])] = []
            for (i, mapping) in migration.entities.enumerated() {
                guard let s = mapping.source else { continue }
                let name = migration.destination.entities[i].name
                for record in try source.fetch(FetchDescriptor(entity: migration.source.entities[s].name)) {
                    let id = PersistentIdentifier.temporary(entity: name)
                    temporary[i, default: [:]][record.persistentIdentifier.primaryKey] = id
                    rows.append((i, id, record.attributeValues, record.relationshipValues))
                }
            }
            var inserted: [Self.Snapshot] = []
            inserted.reserveCapacity(rows.count)
            for row in rows {
                let entity = migration.destination.entities[row.entity]
                let mapped = migration.relationships(row.entity, from: row.relationships, storeIdentifier: "")
                let links = mapped.enumerated().map { r, value -> RelationshipValue in
                    let targets = temporary[entity.destinationIndices[r]] ?? [:]
                    switch value {
                    case .toOne(let id): return .toOne(id.flatMap { targets[$0.primaryKey] })
                    case .toMany(let list): return .toMany(list.compactMap { targets[$0.primaryKey] })
                    }
                }
                inserted.append(Self.Snapshot(entity: entity, persistentIdentifier: row.id, attributes: migration.attributes(row.entity, from: row.attributes), relationships: links))
            }
            let target = try Self(staging)
            _ = try target.save(SaveRequest(inserted: inserted))
        } catch {
            removeStore(staging)
            throw error
        }
        try replaceStore(configuration, with: staging)
        withExtendedLifetime(source) {}
    }
}
