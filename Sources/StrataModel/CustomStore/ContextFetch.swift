/// The SwiftData descriptor a context fetch started from, carried beside the core fetch it became,
/// so that `CustomStoreAdapter` can hand a custom store the real `Predicate<T>` and
/// `SortDescriptor<T>`s (as SwiftData does) instead of stand-ins.
///
/// `ModelContext.fetch`, `fetchCount` and `fetchIdentifiers` set it (a task-local value, so it
/// reaches the adapter through the core contract without changing it) for the duration of the call.
/// The adapter uses it only for a core fetch of the same entity with the same translated predicate
/// and sort keys (the context's own lookups by identifier during that call are not it).
protocol ContextFetch: Sendable {
    /// The entity fetched.
    var entityName: String { get }
    /// The core fetch the descriptor translates to (its window as the descriptor's).
    var core: Strata.FetchDescriptor { get }
    /// Asks `adapter`'s custom store with the descriptor, windowed as `request`.
    func answer<Wrapped: DataStore>(_ adapter: CustomStoreAdapter<Wrapped>, _ request: Strata.FetchDescriptor, _ cache: RecordCache) throws -> [Strata.DefaultSnapshot]
}

extension ContextFetch {
    /// Whether `request` is this fetch (window aside: a fetch that sees pending changes widens it).
    func isAsked(by request: Strata.FetchDescriptor) -> Bool {
        request.entityName == core.entityName && request.predicate == core.predicate && request.sortBy == core.sortBy
    }
}

/// The task-local slot `ModelContext` fills.
enum ContextFetches {
    @TaskLocal static var current: (any ContextFetch)?

    /// Runs `body` with `descriptor` as the fetch being answered when `store` is a custom store's
    /// adapter (the only reader); runs it plainly otherwise, at no cost to the built-in backends:
    /// whether the store reads it is a flag decided when the store was opened
    /// (`ModelStore.readsContextFetches`), not a conditional-conformance cast per fetch.
    static func answering<T: PersistentModel, R>(_ descriptor: FetchDescriptor<T>, _ core: Strata.FetchDescriptor, by store: any ModelStore, _ body: () throws -> R) rethrows -> R {
        guard store.readsContextFetches else { return try body() }
        return try $current.withValue(ModelContextFetch(descriptor: descriptor, core: core), operation: body)
    }
}

/// A store that reads `ContextFetches.current`: the custom-store adapter (the model layer's box
/// around it records this once, in `ModelStoreBox.readsContextFetches`).
protocol ReadsContextFetches {}

extension CustomStoreAdapter: ReadsContextFetches {}

/// A context fetch of `T`.
struct ModelContextFetch<T: PersistentModel>: ContextFetch, @unchecked Sendable {
    // @unchecked: the descriptor's key paths are not `Sendable`; the value is read only by the
    // adapter call it was set for, on the same thread.
    let descriptor: FetchDescriptor<T>
    let core: Strata.FetchDescriptor

    var entityName: String { core.entityName }

    func answer<Wrapped: DataStore>(_ adapter: CustomStoreAdapter<Wrapped>, _ request: Strata.FetchDescriptor, _ cache: RecordCache) throws -> [Strata.DefaultSnapshot] {
        var asked = descriptor
        asked.fetchLimit = request.fetchLimit
        asked.fetchOffset = request.fetchOffset == 0 ? nil : request.fetchOffset
        return try adapter.answer(asked, request, cache)
    }
}
