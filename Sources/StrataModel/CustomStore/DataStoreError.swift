/// The errors a custom store throws to the framework (SwiftData's `DataStoreError`).
///
/// `preferInMemoryFilter` and `preferInMemorySort` are requests, not failures: the framework asks
/// again without the predicate (or the sort) and applies it to what the store returns.
public enum DataStoreError: Error, Hashable, Sendable {
    /// The store cannot run this predicate.
    case invalidPredicate
    /// Fetch without the predicate and filter in memory.
    case preferInMemoryFilter
    /// Fetch without the sort and sort in memory.
    case preferInMemorySort
    /// The store does not do this.
    case unsupportedFeature
}
