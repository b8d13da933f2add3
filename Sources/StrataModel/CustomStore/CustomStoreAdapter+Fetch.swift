import Foundation

extension CustomStoreAdapter {
    /// The records `descriptor` selects, as the custom store answers them (see
    /// `CustomStoreAdapter`): with the context's own `Predicate<T>` and `SortDescriptor`s when the
    /// fetch came from a `ModelContext`, else with stand-ins; filtered, sorted and windowed here
    /// only where the store asked for it.
    public func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [Strata.DefaultSnapshot] {
        let entity = try descriptor.checkedEntity(in: schema)
        return try locked {
            let cache = RecordCache()
            let rows: [Strata.DefaultSnapshot]
            if let asked = ContextFetches.current, asked.isAsked(by: descriptor) {
                rows = try asked.answer(self, descriptor, cache)
            } else {
                let type = configuration.modelTypes[entity.name] ?? SchemaRecord.self
                rows = try standIn(type, descriptor, cache)
            }
            if let error = cache.failure { throw error }
            return rows
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
        let entity = try schema.requireEntity(name)
        let type = configuration.modelTypes[entity.name] ?? SchemaRecord.self
        return try standIn(type, Strata.FetchDescriptor(entity: name), cache)
    }

    /// A core fetch with no SwiftData descriptor behind it (the suite, the context's lookups by
    /// identifier): `descriptor.predicate` is a stand-in for the core filter (in `filter`), and
    /// `sortBy` has one stand-in per core sort key (in `sortKeys`); the window is applied here.
    private func standIn<T: PersistentModel>(_: T.Type, _ request: Strata.FetchDescriptor, _ cache: RecordCache) throws -> [Strata.DefaultSnapshot] {
        // No window: a store cannot tell `SchemaRecord`'s entity, so it could not window it.
        var descriptor = FetchDescriptor<T>(filter: request.predicate, sortBy: request.sortBy)
        descriptor.predicate = request.predicate.map { storeFilterPredicate($0, for: T.self) }
        descriptor.sortBy = request.sortBy.map { SortDescriptor(\T.persistentModelID, order: $0.order == .ascending ? .forward : .reverse) }
        return try answer(descriptor, request, cache)
    }

    /// Asks the custom store with `descriptor` (the SwiftData form of `request`), as SwiftData does:
    /// its answer is trusted, except that when it throws `DataStoreError.preferInMemoryFilter` /
    /// `.preferInMemorySort` it is asked again without the predicate / the sort (and without the
    /// window, which would cut the wrong records) and this adapter applies `request`'s filter, sort
    /// (ties by primary key) and window itself. A store that returns more than `fetchLimit` records
    /// ignored the window: offset and limit are applied to its answer. Snapshots of other entities
    /// are dropped, each record kept once; every snapshot returned lands in `cache`.
    func answer<T: PersistentModel>(_ asked: FetchDescriptor<T>, _ request: Strata.FetchDescriptor, _ cache: RecordCache) throws -> [Strata.DefaultSnapshot] {
        let entity = try schema.requireEntity(request.entityName)
        var descriptor = asked
        var filterHere = false
        var sortHere = false
        var result: DataStoreFetchResult<T, Wrapped.Snapshot>?
        while result == nil {
            do {
                result = try wrapped.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
            } catch DataStoreError.preferInMemoryFilter where !filterHere && (descriptor.predicate != nil || descriptor.filter != nil) {
                (descriptor.predicate, descriptor.filter, filterHere) = (nil, nil, true)
                (descriptor.fetchLimit, descriptor.fetchOffset) = (nil, nil)
            } catch DataStoreError.preferInMemorySort where !sortHere && !(descriptor.sortBy.isEmpty && descriptor.sortKeys.isEmpty) {
                (descriptor.sortBy, descriptor.sortKeys, sortHere) = ([], [], true)
                (descriptor.fetchLimit, descriptor.fetchOffset) = (nil, nil)
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
        let whole = descriptor.predicate == nil && descriptor.filter == nil && descriptor.fetchLimit == nil && descriptor.fetchOffset == nil
        if whole { cache.loadedEntities.insert(entity.name) }

        let evaluator = PredicateEvaluator(schema: schema, reader: SnapshotReader<Strata.DefaultSnapshot> { [self] id in
            cache.record(id) { try records(ofEntityNamed: id.entityName, into: cache) }
        })
        if filterHere, let predicate = request.predicate {
            let test = try evaluator.compile(predicate, for: entity)
            rows = rows.filter(test)
        }
        let storeWindowed = descriptor.fetchLimit != nil || descriptor.fetchOffset != nil
        let windowHere = !storeWindowed || request.fetchLimit.map { rows.count > $0 } ?? false
        if sortHere, !request.sortBy.isEmpty {
            let getters = try request.sortBy.map { try evaluator.sortGetter($0, entity) }
            var keyed = rows.map { row in (key: row.persistentIdentifier.primaryKey, values: getters.map { $0(row) }, row: row) }
            return request.orderedWindow(&keyed).map(\.row)
        }
        return windowHere ? Array(rows.dropFirst(request.fetchOffset).prefix(request.fetchLimit ?? Int.max)) : rows
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
