import Foundation

/// A `#Predicate`-compatible expression that stands for a core `FetchPredicate`: what a custom
/// store is handed as `descriptor.predicate` for a fetch that did not come from a `ModelContext`
/// (the conformance suite, the context's own lookups by identifier), which has no `Predicate<T>`.
///
/// A store sees a non-`nil` predicate exactly when the fetch filters, which is what stores written
/// for SwiftData test before throwing `DataStoreError.preferInMemoryFilter`. The filter itself is
/// in `descriptor.filter`, for a store that runs core predicates; evaluating this expression
/// throws `unsupportedPredicate`. A store that answers without doing either is trusted, and its
/// wrong answer is what the suite reports.
struct StoreFilterExpression: StandardPredicateExpression {
    typealias Output = Bool
    let predicate: FetchPredicate

    func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        throw StrataError(
            .unsupportedPredicate,
            "This predicate stands for Strata's core filter (descriptor.filter) and cannot be evaluated on objects; throw DataStoreError.preferInMemoryFilter to have the framework filter.")
    }

    init(_ predicate: FetchPredicate) { self.predicate = predicate }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "A store filter is not decodable."))
    }

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(predicate, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "A store filter is not encodable."))
    }
}

/// The predicate a custom store is handed for a core filter.
func storeFilterPredicate<T: PersistentModel>(_ filter: FetchPredicate, for type: T.Type) -> Predicate<T> {
    Predicate<T>({ _ in StoreFilterExpression(filter) })
}
