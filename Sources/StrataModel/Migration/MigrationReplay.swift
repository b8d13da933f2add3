@_spi(StrataEngine) import Strata

/// The net change between two staged states of one schema, as one save for the real store.
///
/// Records the stage kept have the same primary key in both; records a stage inserted have a key
/// of the staging engine, which the real store does not know: they are sent with temporary
/// identifiers, and the keys the store gives them are remembered (`keys`) for the saves after.
struct MigrationReplay {
    /// Per entity name, staging key → the store's key, for records inserted by an earlier save.
    private var keys: [String: [Int64: Int64]] = [:]

    /// The save turning `before` into `after` at the store `storeIdentifier`.
    func request(from before: StoreState, to after: StoreState, storeIdentifier: String) -> (request: SaveRequest<Strata.DefaultSnapshot>, inserted: [(entity: String, key: Int64, id: PersistentIdentifier)]) {
        let schema = after.schema
        var temporary: [String: [Int64: PersistentIdentifier]] = [:]
        var inserted: [(entity: String, key: Int64, id: PersistentIdentifier)] = []
        for entity in schema.entities {
            after.forEachRecord(entity) { key, _ in
                if !before.contains(entity, key) {
                    let id = PersistentIdentifier.temporary(entity: entity.name)
                    temporary[entity.name, default: [:]][key] = id
                    inserted.append((entity.name, key, id))
                }
                return true
            }
        }
        func identifier(_ entity: String, _ key: Int64) -> PersistentIdentifier {
            if let id = temporary[entity]?[key] { return id }
            return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity, primaryKey: keys[entity]?[key] ?? key)
        }
        func snapshot(_ entity: EntitySchema, _ key: Int64, _ record: StoredRecord) -> Strata.DefaultSnapshot {
            let relationships = record.links.enumerated().map { r, link -> RelationshipValue in
                let destination = entity.destinationNames[r]
                switch link {
                case .one(let target): return .toOne(target.map { identifier(destination, $0) })
                case .many(let targets): return .toMany(targets.map { identifier(destination, $0) })
                }
            }
            return Strata.DefaultSnapshot(entity: entity, persistentIdentifier: identifier(entity.name, key), attributes: record.attributes, relationships: relationships)
        }
        var request = SaveRequest<Strata.DefaultSnapshot>()
        for entity in schema.entities {
            before.forEachRecord(entity) { key, record in
                if !after.contains(entity, key) { request.deleted.append(snapshot(entity, key, record)) }
                return true
            }
            after.forEachRecord(entity) { key, record in
                if let old = before.record(entity, key) {
                    if old != record { request.updated.append(snapshot(entity, key, record)) }
                } else {
                    request.inserted.append(snapshot(entity, key, record))
                }
                return true
            }
        }
        return (request, inserted)
    }

    /// Remembers the keys the store gave the records a save inserted.
    mutating func record(_ inserted: [(entity: String, key: Int64, id: PersistentIdentifier)], _ result: SaveResult<Strata.DefaultSnapshot>) {
        for i in inserted {
            guard let stored = result.remappedIdentifiers[i.id] else { continue }
            keys[i.entity, default: [:]][i.key] = stored.primaryKey
        }
    }
}
