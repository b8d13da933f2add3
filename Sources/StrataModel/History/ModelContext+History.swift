import Foundation

/// SwiftData's history API on the context: `fetchHistory(_:)` and `deleteHistory(_:)`, over the
/// store's persisted history (`Strata.HistoryRecordingStore`, docs/history.md).
///
/// The store must record history: open it with a backend configuration whose `recordsHistory` is
/// `true` (every built-in backend can). A custom store (SwiftData's `DataStore`) that conforms to
/// `HistoryProviding` answers both itself, as in SwiftData, for descriptors of its `HistoryType`.
/// Otherwise both throw `unsupported`, rather than answer with an empty history.
extension ModelContext {
    /// The transactions `descriptor` selects, in token order unless it sorts them.
    ///
    /// The predicate is evaluated on the transactions (`Predicate.evaluate`), so any predicate over
    /// `token`, `author`, `timestamp`… works. When it bounds the token from below (`$0.token >
    /// last`, alone or in `&&`), only the transactions after it are read, and a token older than
    /// the oldest kept transaction throws `historyTokenExpired` (SwiftData's
    /// `SwiftDataError.historyTokenExpired` matches it), as SwiftData does; otherwise every kept
    /// transaction is read.
    ///
    /// - Throws: `unsupported` when the store keeps no history or `T` is not
    ///   `DefaultHistoryTransaction`; `typeMismatch` for a negative `fetchLimit` (0 returns none,
    ///   as a fetch's does); the predicate's error.
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        if let provided = try store.providedHistory(descriptor) { return provided }
        guard T.self == DefaultHistoryTransaction.self else {
            throw StrataError(.unsupported, "Strata's stores fetch history as DefaultHistoryTransaction, not \(T.self).")
        }
        // A bound on the token (`$0.token > last`) is read from the predicate: only what follows is
        // read, and a token older than the kept history is `historyTokenExpired`, not a silent gap.
        let after = (descriptor.predicate as? Predicate<DefaultHistoryTransaction>).flatMap(HistoryPredicateBound.after)
        var transactions = try store.fetchHistory(HistoryQuery(after: after)).map { container.historyTransaction($0) as! T }
        if let predicate = descriptor.predicate { transactions = try transactions.filter { try predicate.evaluate($0) } }
        if !descriptor.sortBy.isEmpty { transactions.sort(using: descriptor.sortBy) }
        if let limit = descriptor.fetchLimit {
            guard limit >= 0 else { throw StrataError(.typeMismatch, "A history fetchLimit cannot be negative; use nil for every transaction.") }
            transactions = Array(transactions.prefix(limit))
        }
        return transactions
    }

    /// Deletes history: every transaction up to and including the newest one `descriptor` selects
    /// (a store deletes history as a prefix, so a later fetch from an older token fails with
    /// `historyTokenExpired` instead of missing changes). Deletes nothing when none matches.
    ///
    /// - Throws: `unsupported` when the store keeps no history; the store's error.
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        if try store.deleteProvidedHistory(descriptor) { return }
        var all = descriptor
        all.fetchLimit = nil
        all.sortBy = []
        guard let newest = try fetchHistory(all).last else { return }
        try store.deleteHistory(through: (newest as! DefaultHistoryTransaction).token.storeToken)
    }
}

extension ModelContainer {
    /// A store-level transaction as SwiftData's types: each change typed by its record's model.
    func historyTransaction(_ transaction: StoreHistoryTransaction) -> DefaultHistoryTransaction {
        let changes = transaction.changes.enumerated().compactMap { n, change -> HistoryChange? in
            guard let info = modelSchema.infos[change.identifier.entityName] else { return nil }
            return Self.change(info.type, change, number: Int64(n), transaction: transaction.token.transaction)
        }
        return DefaultHistoryTransaction(transaction, changes: changes)
    }

    private static func change<Model: PersistentModel>(_ type: Model.Type, _ change: StoreHistoryChange, number: Int64, transaction: Int64) -> HistoryChange {
        func keyPath(_ name: String) -> PartialKeyPath<Model>? {
            guard let property = Model.schemaMetadata.first(where: { $0.name == name }) else { return nil }
            return Model._$keyPath(property.ordinal, optionalRoot: false) as? PartialKeyPath<Model>
        }
        switch change.kind {
        case .insert:
            return .insert(DefaultHistoryInsert<Model>(changeIdentifier: number, changedPersistentIdentifier: change.identifier, transactionIdentifier: transaction, storeChange: change))
        case .update:
            return .update(DefaultHistoryUpdate<Model>(
                changeIdentifier: number, changedPersistentIdentifier: change.identifier, transactionIdentifier: transaction,
                updatedAttributes: change.changedNames.compactMap(keyPath), storeChange: change))
        case .delete:
            let values = change.tombstone.sorted { $0.key < $1.key }.compactMap { name, value in keyPath(name).map { ($0, value.swiftValue) } }
            return .delete(DefaultHistoryDelete<Model>(
                changeIdentifier: number, changedPersistentIdentifier: change.identifier, transactionIdentifier: transaction,
                tombstone: HistoryTombstone(values: values), storeChange: change))
        }
    }
}

extension Value {
    /// The value as the Swift type a model property holds (`nil` for `.null`), for a tombstone.
    var swiftValue: any Sendable {
        switch self {
        case .null: Optional<Int>.none as any Sendable
        case .bool(let v): v
        case .int(let v): Int(v)
        case .double(let v): v
        case .string(let v): v
        case .date(let v): v
        case .data(let v): v
        case .uuid(let v): v
        case .url(let v): v
        }
    }
}
