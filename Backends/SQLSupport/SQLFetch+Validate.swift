@_spi(StrataEngine) import Strata

extension SQLFetch {
    /// The entity `descriptor` fetches, after the checks every backend makes before its query:
    /// a window that is not negative, and the predicate and sort keys compiled by the core's
    /// evaluator, so names and types fail with the same errors as on every other backend.
    package static func validate(_ descriptor: FetchDescriptor, schema: Schema) throws -> EntitySchema {
        let entity = try schema.requireEntity(descriptor.entityName)
        guard descriptor.fetchOffset >= 0, (descriptor.fetchLimit ?? 0) >= 0 else {
            throw StrataError(.typeMismatch, "fetchOffset and fetchLimit cannot be negative.", entity: entity.name)
        }
        let evaluator = PredicateEvaluator(schema: schema, reader: SnapshotReader<DefaultSnapshot> { _ in nil })
        if let predicate = descriptor.predicate { _ = try evaluator.compile(predicate, for: entity) }
        for key in descriptor.sortBy { _ = try evaluator.attributeGetter(key.path, entity) }
        return entity
    }
}
