/// A custom store that keeps the history of its changes (SwiftData's `HistoryProviding`).
///
/// SwiftData's names, shape and meaning: `ModelContext.fetchHistory(_:)` / `deleteHistory(_:)` with
/// a `HistoryDescriptor<HistoryType>` on a container whose store is this custom store call the
/// store's own `fetchHistory(_:)` / `deleteHistory(_:)` (one call at a time, as every call into a
/// custom store), and return what it returns. A store that does not conform, or a descriptor of
/// another transaction type, gets `unsupported`. Recording history is the store's own job here; the
/// built-in backends record it through the core contract instead (docs/history.md).
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
