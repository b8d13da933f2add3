/// Reads one entity of a store in key order, a batch at a time, without listing the whole entity
/// when its keys are dense: a batch is a range of keys fetched with `identifierIn` (which ignores
/// keys that name nothing). An entity with few records spread over a wide key range (fewer than a
/// quarter of the keys used) is listed once with `fetchIdentifiers` instead: 8 bytes a record.
struct KeyBatches<Store: DataStore> {
    let store: Store
    let entity: EntitySchema
    let size: Int
    /// The keys still to read when the entity is listed; `nil` when reading key ranges.
    private var listed: ArraySlice<Int64>?
    /// The next key of a range read, and the last key the entity holds.
    private var low: Int64 = 1
    private var last: Int64 = 0

    /// Prepares to read `entity` of `store` in batches of `size` records (or keys).
    init(_ store: Store, _ entity: EntitySchema, size: Int) throws {
        self.store = store
        self.entity = entity
        self.size = size
        let count = try store.fetchCount(FetchDescriptor(entity: entity.name))
        guard count > 0 else { return }
        last = try store.fetchIdentifiers(FetchDescriptor(entity: entity.name, fetchLimit: 1, fetchOffset: count - 1)).first?.primaryKey ?? 0
        if last / 4 > Int64(count) + Int64(size) {
            listed = try store.fetchIdentifiers(FetchDescriptor(entity: entity.name)).map(\.primaryKey)[...]
        }
    }

    /// The next batch of records in key order, `nil` after the last.
    mutating func next() throws -> [Store.Snapshot]? {
        while true {
            let keys: [Int64]
            if var rest = listed {
                guard !rest.isEmpty else { return nil }
                keys = Array(rest.prefix(size))
                rest = rest.dropFirst(size)
                listed = rest
            } else {
                guard low <= last, last > 0 else { return nil }
                let high = last - low < Int64(size) ? last : low + Int64(size) - 1
                keys = Array(low...high)
                low = high == last ? last + 1 : high + 1
            }
            let records = try fetch(keys)
            if !records.isEmpty { return records }
        }
    }

    /// The records of `keys` (those that exist), in key order.
    func fetch(_ keys: [Int64]) throws -> [Store.Snapshot] {
        let ids = keys.map { PersistentIdentifier(storeIdentifier: store.identifier, entityName: entity.name, primaryKey: $0) }
        return try store.fetch(FetchDescriptor(entity: entity.name, predicate: .identifierIn(ids)))
    }
}
