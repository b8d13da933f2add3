@_spi(StrataEngine) import Strata

extension SQLFetch {
    /// The entity `descriptor` fetches, after the checks every backend makes before its query:
    /// a window that is not negative, and the predicate and sort keys compiled by the core's
    /// evaluator, so names and types fail with the same errors as on every other backend.
    package static func validate(_ descriptor: FetchDescriptor, schema: Schema) throws -> EntitySchema {
        try descriptor.checkedEntity(in: schema)
    }
}
