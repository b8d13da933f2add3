import Strata

/// Live sequences: what a container's store commits — from any context of this container, and,
/// on a store that can wake readers (`WatchableStore`: every built-in persistent backend), from any
/// other container or process — arrives without fetching again by hand or polling. Another
/// process's commits are noticed through inotify on the store's files (`StoreWatcher`), or on
/// PostgreSQL through `LISTEN` for the notification each save sends.
extension ModelContainer {
    /// Wakes once per burst of commits to the store (`StoreWakes`).
    ///
    /// - Throws: `ioFailure` when the store's files cannot be watched; `storeUnavailable` when a
    ///   server store cannot listen.
    func storeWakes() throws -> StoreWakes {
        try StoreWakes(sources: store.makeWakeSources(), own: changes())
    }

    /// The store's history transactions after `token` (all kept ones for `nil`), and then each new
    /// one as it commits — in this process or, on a persistent backend, in any other — in token
    /// order, optionally only those by `authors`. Never polls: it waits for an observed commit
    /// (see `storeWakes`). A consumer keeps the last token it processed (it is `Codable`) and
    /// resumes from it after a restart.
    ///
    /// ```swift
    /// for try await transaction in container.historyTransactions(after: saved, authors: ["importer"]) {
    ///     for change in transaction.changes { print(change) }
    ///     saved = transaction.token
    /// }
    /// ```
    ///
    /// The sequence ends with `historyTokenExpired` if history up to a transaction it has not yet
    /// delivered is deleted, and with `unsupported` when the store keeps no history.
    public func historyTransactions(after token: DefaultHistoryToken? = nil, authors: Set<String>? = nil) -> AsyncThrowingStream<DefaultHistoryTransaction, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DefaultHistoryTransaction, any Error>.makeStream()
        let store = self.store
        let task = Task {
            do {
                let wakes = try storeWakes()
                defer { wakes.stop() }
                var seen = token?.storeToken
                var iterator = wakes.wakes.makeAsyncIterator()
                repeat {
                    try store.lookForCommits()  // a file store's reads may not look again yet
                    // Every transaction after the last one seen (other authors included, so `seen`
                    // moves past them), then only the wanted ones out.
                    for transaction in try store.fetchHistory(HistoryQuery(after: seen)) {
                        seen = transaction.token
                        if let authors, !(transaction.author.map(authors.contains) ?? false) { continue }
                        continuation.yield(historyTransaction(transaction))
                    }
                } while await iterator.next() != nil && !Task.isCancelled
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension ModelContext {
    /// The results of `descriptor` now, and then again each time a committed save — from any
    /// context, and on a persistent backend from any process — changes them (which records match,
    /// their order, or a stored value of one of them). Fetched in this context, so the elements
    /// are this context's objects; iterate on the context's actor or thread.
    ///
    /// ```swift
    /// for try await trips in context.liveResults(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Rome" }, sortBy: [SortDescriptor(\.startDate)])) {
    ///     print(trips.map(\.name))
    /// }
    /// ```
    ///
    /// A Strata extension: SwiftData offers live results only through SwiftUI's `@Query`.
    public func liveResults<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) -> LiveResults<T> {
        LiveResults(context: self, descriptor: descriptor)
    }
}

/// A fetch's results, again after each committed save that changes them (`ModelContext.liveResults`).
public struct LiveResults<T: PersistentModel>: AsyncSequence {
    /// The results, in the descriptor's order.
    public typealias Element = [T]
    let context: ModelContext
    let descriptor: FetchDescriptor<T>

    /// Starts watching the store (before the first fetch, so no commit falls between the two).
    public func makeAsyncIterator() -> Iterator { Iterator(context: context, descriptor: descriptor) }

    /// Fetches, then waits for a commit that changes the results.
    public struct Iterator: AsyncIteratorProtocol {
        let context: ModelContext
        let descriptor: FetchDescriptor<T>
        private var subscription: StoreWakes?
        private var wakes: AsyncStream<Void>.Iterator?
        private var failure: (any Error)?
        private var last: [StoredSnapshot]?

        init(context: ModelContext, descriptor: FetchDescriptor<T>) {
            self.context = context
            self.descriptor = descriptor
            do {
                let subscription = try context.container.storeWakes()
                self.subscription = subscription
                self.wakes = subscription.wakes.makeAsyncIterator()
            } catch {
                failure = error
            }
        }

        /// The current results first, then the next ones that differ from the last yielded;
        /// `nil` when the task is cancelled.
        public mutating func next() async throws -> [T]? {
            if let failure {
                self.failure = nil
                throw failure
            }
            let request = try descriptor.storeDescriptor()
            if last != nil {
                while true {
                    guard await wakes?.next() != nil, !Task.isCancelled else {
                        subscription?.stop()
                        return nil
                    }
                    try context.store.lookForCommits()  // a file store's fetch may not look again yet
                    if try context.store.fetch(request) != last { break }
                }
            }
            last = try context.store.fetch(request)
            return try context.fetch(descriptor)
        }
    }
}

/// Wake-ups after commits to a container's store: saves of this container's contexts, and (on a
/// `WatchableStore`) every commit by any process its wake sources report. Spurious wake-ups happen
/// (a save of this process is seen twice, a file changed without a commit): check what changed
/// after each. Make it before the first read, so no commit falls between the two. Stops watching
/// when stopped or released.
final class StoreWakes: Sendable {
    /// One element per burst of commits.
    let wakes: AsyncStream<Void>
    private let poke: AsyncStream<Void>.Continuation
    private let sources: [any StoreWakeSource]
    private let forwarding: [Task<Void, Never>]

    init(sources: [any StoreWakeSource], own: AsyncStream<ModelChanges>) {
        let (wakes, poke) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakes = wakes
        self.poke = poke
        self.sources = sources
        forwarding = sources.map { source in
            Task { for await _ in source.wakes { poke.yield() } }
        } + [Task { for await _ in own { poke.yield() } }]
    }

    /// Stops watching; `wakes` finishes.
    func stop() {
        for source in sources { source.close() }
        for task in forwarding { task.cancel() }
        poke.finish()
    }

    deinit { stop() }
}
