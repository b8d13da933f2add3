import Foundation

/// SwiftData's description of a history fetch: a predicate on the transactions (their `token`,
/// `author`, `timestamp`…), a sort and a limit.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken && $0.author == "widget" }
/// let transactions = try context.fetchHistory(descriptor)
/// ```
public struct HistoryDescriptor<T: HistoryTransaction> {
    /// Which transactions; `nil`: all kept.
    public var predicate: Predicate<T>?
    /// Their order; empty: token (commit) order.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many; `nil`: all. 0 returns none, as SwiftData documents ("use `nil`, not `0`")
    /// and as `FetchDescriptor.fetchLimit` and the store's `HistoryQuery.limit` do.
    public var fetchLimit: Int?

    /// Describes a history fetch.
    public init(predicate: Predicate<T>? = nil) {
        self.predicate = predicate
        self.sortBy = []
        self.fetchLimit = nil
    }
}
