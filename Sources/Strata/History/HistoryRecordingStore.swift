/// A store that records persisted history: every committed save that the configuration's
/// `recordsHistory` turned on leaves one `StoreHistoryTransaction`, written in the same atomic
/// commit as the data (a failed or killed save records nothing; a committed one always has its
/// transaction). Tokens survive reopen; history grows until `deleteHistory` removes it.
///
/// Optional: a backend that conforms declares `StoreCapabilities.history`; the conformance suite's
/// `history` cases run on it and are reported as skipped (with the reason) on one that does not.
/// docs/store-contract.md §11 states the rules.
///
/// ```swift
/// var configuration = SQLiteStoreConfiguration(url: url, schema: schema)
/// configuration.recordsHistory = true
/// let store = try SQLiteStore(configuration)
/// let changes = try store.fetchHistory(HistoryQuery(after: lastSeen))
/// ```
public protocol HistoryRecordingStore: DataStore {
    /// The transactions `query` selects, in token order, from every writer of the location
    /// (another process's included), as committed when the call starts.
    ///
    /// - Throws: `historyTokenExpired` when `query.after` is older than the oldest kept transaction;
    ///   `invalidRequest` for a token of another store.
    func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction]
    /// Removes every transaction up to and including `token`, atomically; later fetches from an
    /// older token fail with `historyTokenExpired`. Works on a store that does not record.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    func deleteHistory(through token: StoreHistoryToken) throws
}

extension DataStoreConfiguration {
    /// Whether saves record history. A configuration without the setting never records: the
    /// default reads `false` and ignores writes (backends that record declare a stored property).
    public var recordsHistory: Bool {
        get { false }
        set {}
    }
}
