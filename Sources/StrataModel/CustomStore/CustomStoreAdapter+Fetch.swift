import Foundation

extension CustomStoreAdapter {
    /// The records `descriptor` selects, in the contract's order: asked of the custom store, then
    /// filtered, sorted and windowed here (see `CustomStoreAdapter`).
    public func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [Strata.DefaultSnapshot] {
        let entity = try descriptor.checkedEntity(in: schema)
        return try locked {
            let cache = RecordCache()
            let rows = try records(of: entity, filter: descriptor.predicate, sortBy: descriptor.sortBy, into: cache)
            var matching = rows
            let evaluator = PredicateEvaluator(schema: schema, reader: SnapshotReader<Strata.DefaultSnapshot> { [self] id in
                cache.record(id) { try records(ofEntityNamed: id.entityName, into: cache) }
            })
            if let predicate = descriptor.predicate {
                let test = try evaluator.compile(predicate, for: entity)
                matching = rows.filter(test)
            }
            let getters = try descriptor.sortBy.map { try evaluator.sortGetter($0, entity) }
            var keyed = matching.map { row in (key: row.persistentIdentifier.primaryKey, values: getters.map { $0(row) }, row: row) }
            let window = descriptor.orderedWindow(&keyed).map(\.row)
            if let error = cache.failure { throw error }
            return window
        }
    }

    /// How many records `descriptor` selects, window applied.
    public func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int { try fetch(descriptor).count }

    /// The identifiers of the records `descriptor` selects, in order.
    public func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier] {
        try fetch(descriptor).map(\.persistentIdentifier)
    }

    /// Every record of the entity named `name`, as the custom store returns them.
    func records(ofEntityNamed name: String, into cache: RecordCache) throws -> [Strata.DefaultSnapshot] {
        try records(of: schema.requireEntity(name), filter: nil, sortBy: [], into: cache)
    }

    /// Asks the custom store for `entity`'s records, dropping what it is allowed to refuse, and
    /// keeps every snapshot it returns (related ones included) in `cache`. Returns the snapshots of
    /// `entity`, each once, unfiltered and unsorted as far as this adapter knows.
    func records(of entity: EntitySchema, filter: FetchPredicate?, sortBy: [SortKey], into cache: RecordCache) throws -> [Strata.DefaultSnapshot] {
        let type = configuration.modelTypes[entity.name] ?? SchemaRecord.self
        return try records(type, entity, filter, sortBy, cache)
    }

    private func records<T: PersistentModel>(_: T.Type, _ entity: EntitySchema, _ filter: FetchPredicate?, _ sortBy: [SortKey], _ cache: RecordCache) throws -> [Strata.DefaultSnapshot] {
        var descriptor = FetchDescriptor<T>(filter: filter, sortBy: sortBy)
        descriptor.predicate = filter.map { storeFilterPredicate($0, for: T.self) }
        descriptor.sortBy = sortBy.map { SortDescriptor(\T.persistentModelID, order: $0.order == .ascending ? .forward : .reverse) }
        var result: DataStoreFetchResult<T, Wrapped.Snapshot>?
        while result == nil {
            do {
                result = try wrapped.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
            } catch DataStoreError.preferInMemoryFilter where descriptor.predicate != nil {
                descriptor.predicate = nil
                descriptor.filter = nil
            } catch DataStoreError.preferInMemorySort where !descriptor.sortBy.isEmpty {
                descriptor.sortBy = []
                descriptor.sortKeys = []
            }
        }
        var rows: [Strata.DefaultSnapshot] = []
        var seen = Set<PersistentIdentifier>()
        for snapshot in result!.fetchedSnapshots {
            guard let row = try coreSnapshot(snapshot) else { continue }
            cache.keep(row)
            if row.entity === entity, seen.insert(row.persistentIdentifier).inserted { rows.append(row) }
        }
        for snapshot in result!.relatedSnapshots.values {
            if let row = try coreSnapshot(snapshot) { cache.keep(row) }
        }
        if descriptor.predicate == nil { cache.loadedEntities.insert(entity.name) }
        return rows
    }
}

/// The records a custom store returned during one adapter call, by identifier, for relationship
/// paths of an in-memory filter or sort: a path to a record not yet seen loads its entity once.
final class RecordCache {
    var records: [PersistentIdentifier: Strata.DefaultSnapshot] = [:]
    var loadedEntities: Set<String> = []
    /// The first error met while loading for a path (the predicate reader cannot throw).
    var failure: (any Error)?

    func keep(_ row: Strata.DefaultSnapshot) {
        if records[row.persistentIdentifier] == nil { records[row.persistentIdentifier] = row }
    }

    /// The record `id` names, loading its entity with `load` the first time one is missing.
    func record(_ id: PersistentIdentifier, load: () throws -> [Strata.DefaultSnapshot]) -> Strata.DefaultSnapshot? {
        if let row = records[id] { return row }
        guard !loadedEntities.contains(id.entityName) else { return nil }
        do {
            for row in try load() { keep(row) }
        } catch {
            failure = failure ?? error
        }
        loadedEntities.insert(id.entityName)
        return records[id]
    }
}
