/// A custom store that keeps the history of its changes (SwiftData's `HistoryProviding`).
///
/// Declared with SwiftData's names and shape so that a store written for SwiftData compiles (history
/// itself: docs/history.md, issue #30). The framework does not call it yet: history is recorded by
/// the core store contract (`HistoryRecordingStore`), which `CustomStoreAdapter` does not implement,
/// so `ModelContext.fetchHistory` / `deleteHistory` on a container whose store is a custom store
/// throw `unsupported` ("This store keeps no history."), whether or not the store conforms.
public protocol HistoryProviding {
    /// The store's transaction type.
    associatedtype HistoryType: HistoryTransaction
    /// The store's transaction type, as a value.
    static var historyType: HistoryType.Type { get }
    /// The transactions `descriptor` selects.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]
    /// Deletes the transactions `descriptor` selects.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
}
