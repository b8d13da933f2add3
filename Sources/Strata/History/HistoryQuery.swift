/// Which history transactions to fetch: after a token, up to a token, by author, how many.
///
/// Transactions come in token (commit) order. `after` is exclusive, `through` inclusive.
///
/// ```swift
/// let mine = try store.fetchHistory(HistoryQuery(after: lastSeen, authors: ["importer"], limit: 100))
/// ```
public struct HistoryQuery: Sendable, Hashable {
    /// Only transactions after this one; `nil`: from the oldest kept.
    public var after: StoreHistoryToken?
    /// Only transactions up to and including this one; `nil`: to the newest.
    public var through: StoreHistoryToken?
    /// Only transactions by these authors; `nil`: any author (a transaction without one included).
    public var authors: Set<String>?
    /// At most this many (the oldest first); `nil`: all.
    public var limit: Int?

    /// Describes a history fetch.
    public init(after: StoreHistoryToken? = nil, through: StoreHistoryToken? = nil, authors: Set<String>? = nil, limit: Int? = nil) {
        self.after = after
        self.through = through
        self.authors = authors
        self.limit = limit
    }

    /// Whether `transaction` passes the author filter and the upper bound (backends scan from
    /// `after` and stop at `limit` themselves).
    public func admits(_ transaction: StoreHistoryTransaction) -> Bool {
        if let through, transaction.token.transaction > through.transaction { return false }
        if let authors { return transaction.author.map(authors.contains) ?? false }
        return true
    }

    /// The number of the first transaction to read, after checking the tokens: a token of another
    /// store is an `invalidRequest`; `after` older than the store's horizon (the newest transaction
    /// `deleteHistory` removed) is `historyTokenExpired`, never a silent gap.
    public func firstTransaction(storeIdentifier: String, horizon: Int64) throws -> Int64 {
        for token in [after, through].compactMap({ $0 }) { try token.requireStore(storeIdentifier) }
        guard let after else { return horizon + 1 }
        guard after.transaction >= horizon else {
            throw StrataError(.historyTokenExpired, "The history token \(after) is older than the oldest transaction the store keeps (history up to #\(horizon) was deleted). Fetch the history without a token (from the oldest kept) or refetch the data.")
        }
        return after.transaction + 1
    }
}
