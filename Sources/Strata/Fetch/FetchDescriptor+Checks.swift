/// The checks and ordering of a fetch that every backend with its own storage shares, so a bad
/// descriptor fails the same way and results come out in the same order everywhere.
extension FetchDescriptor {
    /// The entity fetched, after checking the window and every name and type the descriptor uses.
    ///
    /// - Throws: `unknownEntity`, `unknownProperty`, `typeMismatch` (also for a negative offset or limit).
    public func checkedEntity(in schema: Schema) throws -> EntitySchema {
        let entity = try schema.requireEntity(entityName)
        try checkWindow(entity)
        let evaluator = PredicateEvaluator(schema: schema, reader: SnapshotReader<DefaultSnapshot> { _ in nil })
        if let predicate { _ = try evaluator.compile(predicate, for: entity) }
        for key in sortBy { _ = try evaluator.attributeGetter(key.path, entity) }
        return entity
    }

    /// The window's rule, in one place for every backend: neither `fetchOffset` nor `fetchLimit` is
    /// negative (checked first, before the predicate and the sort keys).
    ///
    /// - Throws: `typeMismatch` naming `entity`.
    public func checkWindow(_ entity: EntitySchema) throws {
        guard fetchOffset >= 0, (fetchLimit ?? 0) >= 0 else {
            throw StrataError(.typeMismatch, "fetchOffset and fetchLimit cannot be negative.", entity: entity.name)
        }
    }

    /// Sorts rows of (primary key, sort values) by `sortBy` — ties by key ascending — and applies the
    /// window: the contract's order for any backend that sorts in memory.
    public func orderedWindow<Row>(_ rows: inout [(key: Int64, values: [Value], row: Row)]) -> ArraySlice<(key: Int64, values: [Value], row: Row)> {
        let descending = sortBy.map { $0.order == .descending }
        rows.sort { a, b in
            for i in descending.indices {
                let order = Value.sortOrder(a.values[i], b.values[i])
                if order != 0 { return descending[i] ? order > 0 : order < 0 }
            }
            return a.key < b.key
        }
        return rows.dropFirst(fetchOffset).prefix(fetchLimit ?? Int.max)
    }
}
