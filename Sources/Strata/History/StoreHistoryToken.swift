/// The position of one history transaction in a store: a number each committed save that records
/// history takes, one higher than the last, never reused, kept across reopen.
///
/// Tokens of one store compare in commit order. A client keeps the token of the last transaction it
/// processed (it is `Codable`) and later asks for what came after it (`HistoryQuery(after:)`).
///
/// ```swift
/// let new = try store.fetchHistory(HistoryQuery(after: saved))
/// saved = new.last?.token ?? saved
/// ```
public struct StoreHistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The identifier of the store whose history this token belongs to.
    public var storeIdentifier: String
    /// The transaction's number: 1 for the first transaction a store records, then one higher each.
    public var transaction: Int64

    /// The token of transaction `transaction` of the store `storeIdentifier`.
    public init(storeIdentifier: String, transaction: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transaction = transaction
    }

    /// Commit order (tokens of different stores compare by number only).
    public static func < (a: StoreHistoryToken, b: StoreHistoryToken) -> Bool { a.transaction < b.transaction }

    /// `store#number`.
    public var description: String { "\(storeIdentifier)#\(transaction)" }
}
