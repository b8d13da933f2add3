/// A stored record with its primary key, as the evaluator sees it.
struct KeyedRecord {
    let key: Int64
    let record: StoredRecord
}

/// Reads `StoredRecord`s of one state for the predicate evaluator.
struct StateReader: PredicateReader {
    let state: StoreState

    func attribute(_ r: KeyedRecord, _ index: Int) -> Value { r.record.attributes[index] }
    func toOne(_ r: KeyedRecord, _ index: Int) -> Int64? {
        if case .one(let k) = r.record.links[index] { return k }
        return nil
    }
    func toMany(_ r: KeyedRecord, _ index: Int, contains key: Int64) -> Bool {
        if case .many(let ks) = r.record.links[index] { return ks.contains(key) }
        return false
    }
    func forEachTarget(_ r: KeyedRecord, _ index: Int, _ body: (Int64) -> Bool) {
        if case .many(let ks) = r.record.links[index] { for k in ks where !body(k) { return } }
    }
    func targetCount(_ r: KeyedRecord, _ index: Int) -> Int {
        if case .many(let ks) = r.record.links[index] { return ks.count }
        return 0
    }
    func key(of r: KeyedRecord) -> Int64 { r.key }
    func key(for identifier: PersistentIdentifier, in entity: EntitySchema) -> Int64? {
        guard !identifier.isTemporary, identifier.storeIdentifier == state.storeIdentifier,
            identifier.entityName == entity.name
        else { return nil }
        return identifier.primaryKey
    }
    func record(_ entity: EntitySchema, _ key: Int64) -> KeyedRecord? {
        state.record(entity, key).map { KeyedRecord(key: key, record: $0) }
    }
}

/// Fetching from a state: the evaluator, the contract's order, and the window.
extension StoreState {
    /// The primary keys of the records matching `descriptor`, in the contract's order, windowed.
    public func matchingKeys(_ descriptor: FetchDescriptor) throws -> (EntitySchema, [Int64]) {
        let entity = try schema.requireEntity(descriptor.entityName)
        try descriptor.checkWindow(entity)
        // Faults in the contract's order: window, then predicate, then sort keys.
        let evaluator = PredicateEvaluator(schema: schema, reader: StateReader(state: self))
        let (candidates, rest) = candidateKeys(descriptor.predicate, entity)
        let test = try rest.map { try evaluator.compile($0, for: entity) }
        try validateSort(descriptor.sortBy, entity)
        let table = tables[entity.index]
        let limit = descriptor.fetchLimit ?? Int.max
        let offset = descriptor.fetchOffset

        if descriptor.sortBy.isEmpty {
            var keys: [Int64] = []
            var skipped = 0
            func visit(_ key: Int64, _ record: StoredRecord) -> Bool {
                guard keys.count < limit else { return false }
                if let test, !test(KeyedRecord(key: key, record: record)) { return true }
                if skipped < offset { skipped += 1; return true }
                keys.append(key)
                return keys.count < limit
            }
            if let candidates {
                for key in candidates { if let r = table.records[key], !visit(key, r) { break } }
            } else {
                table.records.forEach(visit)
            }
            return (entity, keys)
        }

        let getters = try descriptor.sortBy.map { try evaluator.sortGetter($0, entity) }
        let descending = descriptor.sortBy.map { $0.order == .descending }
        var rows: [(key: Int64, values: [Value])] = []
        func collect(_ key: Int64, _ record: StoredRecord) -> Bool {
            if let test, !test(KeyedRecord(key: key, record: record)) { return true }
            let keyed = KeyedRecord(key: key, record: record)
            rows.append((key, getters.map { $0(keyed) }))
            return true
        }
        if let candidates {
            for key in candidates { if let r = table.records[key] { _ = collect(key, r) } }
        } else {
            table.records.forEach(collect)
        }
        rows.sort { a, b in
            for i in getters.indices {
                let order = Value.sortOrder(a.values[i], b.values[i])
                if order != 0 { return descending[i] ? order > 0 : order < 0 }
            }
            return a.key < b.key
        }
        let window = rows.dropFirst(offset).prefix(limit)
        return (entity, window.map(\.key))
    }

    /// How many records match `descriptor`, window applied; a count without predicate is O(1).
    public func matchingCount(_ descriptor: FetchDescriptor) throws -> Int {
        let entity = try schema.requireEntity(descriptor.entityName)
        guard descriptor.predicate == nil else { return try matchingKeys(descriptor).1.count }
        try descriptor.checkWindow(entity)
        try validateSort(descriptor.sortBy, entity)
        return min(max(0, count(entity) - descriptor.fetchOffset), descriptor.fetchLimit ?? .max)
    }

    private func validateSort(_ keys: [SortKey], _ entity: EntitySchema) throws {
        let evaluator = PredicateEvaluator(schema: schema, reader: StateReader(state: self))
        for key in keys { _ = try evaluator.attributeGetter(key.path, entity) }
    }

    /// Splits off an identifier filter at the top of the predicate, so fetch-by-identifier is a lookup.
    private func candidateKeys(_ predicate: FetchPredicate?, _ entity: EntitySchema) -> ([Int64]?, FetchPredicate?) {
        func keys(_ ids: [PersistentIdentifier]) -> [Int64] {
            let reader = StateReader(state: self)
            if ids.count == 1 { return reader.key(for: ids[0], in: entity).map { [$0] } ?? [] }
            return Array(Set(ids.compactMap { reader.key(for: $0, in: entity) })).sorted()
        }
        switch predicate {
        case .identifierIn(let ids)?:
            return (keys(ids), nil)
        case .and(let parts)?:
            guard let i = parts.firstIndex(where: { if case .identifierIn = $0 { true } else { false } }),
                case .identifierIn(let ids) = parts[i]
            else { return (nil, predicate) }
            var rest = parts
            rest.remove(at: i)
            return (keys(ids), .and(rest))
        default:
            return (nil, predicate)
        }
    }
}
