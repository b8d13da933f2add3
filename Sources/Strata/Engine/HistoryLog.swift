/// The shared engine's history: the transactions it keeps, in token order, part of the committed
/// `StoreState`, so a save's transaction is published with its data or not at all.
@_spi(StrataEngine) public struct HistoryLog: Sendable, Hashable {
    /// The kept transactions, oldest first.
    public internal(set) var transactions: HistoryTransactions
    /// The number of the newest transaction ever recorded (0: none), kept when it is deleted.
    public internal(set) var lastTransaction: Int64
    /// The number of the newest deleted transaction (0: none deleted): older tokens are expired.
    public internal(set) var horizon: Int64

    /// A log as a backend loaded it (empty by default).
    public init(transactions: [StoreHistoryTransaction] = [], lastTransaction: Int64 = 0, horizon: Int64 = 0) {
        self.init(transactions: HistoryTransactions(transactions), lastTransaction: lastTransaction, horizon: horizon)
    }

    /// A log of `transactions` as kept (no copy).
    public init(transactions: HistoryTransactions, lastTransaction: Int64 = 0, horizon: Int64 = 0) {
        self.transactions = transactions
        self.lastTransaction = max(lastTransaction, transactions.last?.token.transaction ?? 0)
        self.horizon = horizon
    }

    /// The transactions `query` selects.
    public func fetch(_ query: HistoryQuery, storeIdentifier: String) throws -> [StoreHistoryTransaction] {
        let first = try query.firstTransaction(storeIdentifier: storeIdentifier, horizon: horizon)
        var result: [StoreHistoryTransaction] = []
        // Numbers are ascending but not dense (a save that changed nothing takes none): search.
        var low = 0, high = transactions.count
        while low < high {
            let mid = (low + high) / 2
            if transactions[mid].token.transaction < first { low = mid + 1 } else { high = mid }
        }
        for t in transactions[low...] {
            if let through = query.through, t.token.transaction > through.transaction { break }
            if let limit = query.limit, result.count >= limit { break }
            if query.admits(t) { result.append(t) }
        }
        return result
    }

    mutating func append(_ transaction: StoreHistoryTransaction) {
        transactions.append(transaction)
        lastTransaction = transaction.token.transaction
    }

    /// Removes the transactions up to and including `number`.
    public mutating func delete(through number: Int64) {
        transactions.keep { $0.token.transaction > number }
        horizon = max(horizon, min(number, lastTransaction))
    }
}
