/// The transactions a `HistoryLog` keeps, oldest first, stored in chunks so that a save's copy of
/// the log that appends one copies the last chunk and the chunk list, not every transaction.
///
/// A save works on a copy of the committed state; appending its transaction to a plain array
/// shared with the committed state copied the whole array — a retain of every kept transaction on
/// every save, growing with the history, which grows until someone deletes it.
@_spi(StrataEngine) public struct HistoryTransactions: RandomAccessCollection, Sendable, Hashable {
    private var storage = ChunkedArray<StoreHistoryTransaction>()

    /// No transactions.
    public init() {}

    /// `transactions`, in their order.
    public init(_ transactions: some Sequence<StoreHistoryTransaction>) {
        for transaction in transactions { storage.append(transaction) }
    }

    /// The first index (0).
    public var startIndex: Int { 0 }
    /// One past the last index.
    public var endIndex: Int { storage.count }

    /// The transaction at `i`.
    public subscript(i: Int) -> StoreHistoryTransaction { storage[i] }

    /// Adds `transaction` at the end.
    public mutating func append(_ transaction: StoreHistoryTransaction) { storage.append(transaction) }

    /// Keeps only the transactions `keep` admits, in order.
    mutating func keep(where keep: (StoreHistoryTransaction) -> Bool) {
        var kept = ChunkedArray<StoreHistoryTransaction>()
        for transaction in self where keep(transaction) { kept.append(transaction) }
        storage = kept
    }

    /// Whether both hold the same transactions in the same order.
    public static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }

    /// Hashes the transactions in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for transaction in self { hasher.combine(transaction) }
    }
}
