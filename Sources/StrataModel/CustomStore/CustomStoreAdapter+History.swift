/// A store whose history comes from a custom store's own `HistoryProviding` conformance, as in
/// SwiftData, instead of the core's `HistoryRecordingStore`.
protocol ProvidesCustomHistory {
    /// The custom store's transactions `descriptor` selects, or `nil` when it provides no history
    /// of type `T` (it does not conform to `HistoryProviding`, or its `HistoryType` is another).
    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?
    /// Hands `descriptor` to the custom store's `deleteHistory(_:)`; `false` when it provides no
    /// history of type `T`.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool
}

extension CustomStoreAdapter: ProvidesCustomHistory {
    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        guard let provider = wrapped as? any HistoryProviding else { return nil }
        func fetch<Provider: HistoryProviding>(_ provider: Provider) throws -> [T]? {
            guard let own = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return nil }
            return try locked { try provider.fetchHistory(own) } as? [T]
        }
        return try fetch(provider)
    }

    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool {
        guard let provider = wrapped as? any HistoryProviding else { return false }
        func delete<Provider: HistoryProviding>(_ provider: Provider) throws -> Bool {
            guard let own = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return false }
            try locked { try provider.deleteHistory(own) }
            return true
        }
        return try delete(provider)
    }
}
