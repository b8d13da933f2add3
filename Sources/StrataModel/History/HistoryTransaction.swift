import Foundation

/// SwiftData's history transaction: one committed save, with its changes.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The token type.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The transaction identifier type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// Who saved (`ModelContext.author`).
    var author: String? { get }
    /// What changed, in order.
    var changes: [HistoryChange] { get }
    /// The store's identifier.
    var storeIdentifier: String { get }
    /// When the save committed.
    var timestamp: Date { get }
    /// The transaction's token.
    var token: TokenType { get }
    /// The transaction's identifier.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// The transaction of Strata's built-in stores (a `Strata.StoreHistoryTransaction` seen through
/// the model types).
///
/// `bundleIdentifier` and `processIdentifier` are empty: Strata's stores do not record them.
/// `storeTransaction` is a Strata extension: the store-level transaction with each update's old
/// and new values and the store's own changes flagged.
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The token type.
    public typealias TokenType = DefaultHistoryToken
    /// The transaction number.
    public typealias TransactionIdentifier = Int64

    /// The store's identifier.
    public let storeIdentifier: String
    /// Empty: not recorded by Strata's stores.
    public let bundleIdentifier: String
    /// Empty: not recorded by Strata's stores.
    public let processIdentifier: String
    /// The transaction number.
    public let transactionIdentifier: Int64
    /// The transaction's token.
    public let token: DefaultHistoryToken
    /// Who saved.
    public let author: String?
    /// What changed: inserts, updates, deletes.
    public let changes: [HistoryChange]
    /// When the save committed.
    public let timestamp: Date
    /// Strata: the store-level transaction (old and new values, the store's own changes).
    public let storeTransaction: StoreHistoryTransaction

    /// The transaction number.
    public var id: Int64 { transactionIdentifier }

    init(_ transaction: StoreHistoryTransaction, changes: [HistoryChange]) {
        self.storeIdentifier = transaction.token.storeIdentifier
        self.bundleIdentifier = ""
        self.processIdentifier = ""
        self.transactionIdentifier = transaction.token.transaction
        self.token = DefaultHistoryToken(transaction.token)
        self.author = transaction.author
        self.changes = changes
        self.timestamp = transaction.timestamp
        self.storeTransaction = transaction
    }

    /// Equal when they are the same transaction of the same store.
    public static func == (a: Self, b: Self) -> Bool { a.storeTransaction == b.storeTransaction }
    /// Hashes the token.
    public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}
