/// SwiftData's change of one record in a history transaction.
///
/// ```swift
/// switch change {
/// case .insert(let insert as DefaultHistoryInsert<Trip>): …
/// case .update(let update as DefaultHistoryUpdate<Trip>): update.updatedAttributes
/// case .delete(let delete as DefaultHistoryDelete<Trip>): delete.tombstone[\.name]
/// default: break
/// }
/// ```
public enum HistoryChange: Sendable {
    /// The record was inserted.
    case insert(any HistoryInsert)
    /// The record was updated.
    case update(any HistoryUpdate)
    /// The record was deleted.
    case delete(any HistoryDelete)

    /// The record's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let c): c.changedPersistentIdentifier
        case .update(let c): c.changedPersistentIdentifier
        case .delete(let c): c.changedPersistentIdentifier
        }
    }
}

/// SwiftData's insert change.
public protocol HistoryInsert<Model>: Sendable {
    /// The model type of the record.
    associatedtype Model: PersistentModel
    /// The change identifier type.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The transaction identifier type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's position in its transaction.
    var changeIdentifier: ChangeIdentifier { get }
    /// The record.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The transaction.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// SwiftData's update change.
public protocol HistoryUpdate<Model>: Sendable {
    /// The model type of the record.
    associatedtype Model: PersistentModel
    /// The change identifier type.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The transaction identifier type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's position in its transaction.
    var changeIdentifier: ChangeIdentifier { get }
    /// The record.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The transaction.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The properties the update changed.
    var updatedAttributes: [PartialKeyPath<Model>] { get }
}

/// SwiftData's delete change.
public protocol HistoryDelete<Model>: Sendable {
    /// The model type of the record.
    associatedtype Model: PersistentModel
    /// The change identifier type.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The transaction identifier type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's position in its transaction.
    var changeIdentifier: ChangeIdentifier { get }
    /// The record.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The transaction.
    var transactionIdentifier: TransactionIdentifier { get }
    /// What the record held when it was deleted.
    var tombstone: HistoryTombstone<Model> { get }
}

/// The insert of Strata's built-in stores.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    /// The change's position in its transaction.
    public let changeIdentifier: Int64
    /// The record.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The transaction number.
    public let transactionIdentifier: Int64
    /// Strata: the store-level change.
    public let storeChange: StoreHistoryChange
}

/// The update of Strata's built-in stores; `storeChange` (a Strata extension) has each changed
/// attribute's old and new value and each changed relationship's old and new targets.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, @unchecked Sendable {
    /// The change's position in its transaction.
    public let changeIdentifier: Int64
    /// The record.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The transaction number.
    public let transactionIdentifier: Int64
    /// The changed properties (attributes and relationships), as key paths of the model.
    /// (Key paths are immutable values; `@unchecked Sendable` because `PartialKeyPath` is not
    /// declared `Sendable`.)
    public let updatedAttributes: [PartialKeyPath<Model>]
    /// Strata: the store-level change, with old and new values.
    public let storeChange: StoreHistoryChange
}

/// The delete of Strata's built-in stores.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    /// The change's position in its transaction.
    public let changeIdentifier: Int64
    /// The record.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The transaction number.
    public let transactionIdentifier: Int64
    /// The record's values when it was deleted.
    public let tombstone: HistoryTombstone<Model>
    /// Strata: the store-level change.
    public let storeChange: StoreHistoryChange
}

/// SwiftData's tombstone: what a deleted record held, by key path.
///
/// Strata's stores keep every attribute of a deleted record (docs/history.md), so every attribute
/// is here, not only those marked `.preserveValueOnDeletion`.
public struct HistoryTombstone<Model: PersistentModel>: Sequence, @unchecked Sendable {
    /// The values by key path (immutable; `@unchecked Sendable` for the key paths, as above).
    let values: [(PartialKeyPath<Model>, any Sendable)]

    /// The value of the property `keyPath` names, or `nil` if the tombstone has none.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        values.first { $0.0 == keyPath }?.1
    }

    /// The key paths and values.
    public func makeIterator() -> IndexingIterator<[(PartialKeyPath<Model>, any Sendable)]> { values.makeIterator() }
}
