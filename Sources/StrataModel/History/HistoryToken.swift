/// SwiftData's history token: the position of a transaction in a store's history, saved by a
/// client to fetch what came after it.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken }
/// ```
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    /// The token's value type.
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The identifier of the store the token belongs to.
    var storeIdentifier: String { get }
    /// The token's value.
    var tokenValue: TokenType? { get }
}

/// The token of Strata's built-in stores: the store's transaction number (`Strata.StoreHistoryToken`),
/// which only grows, survives reopen and compares in commit order.
public struct DefaultHistoryToken: HistoryToken {
    /// The transaction number.
    public typealias TokenType = Int64
    /// The identifier of the store the token belongs to.
    public let storeIdentifier: String
    /// The transaction number.
    public let tokenValue: Int64?

    /// The token of a store-level transaction token.
    public init(_ token: StoreHistoryToken) {
        self.storeIdentifier = token.storeIdentifier
        self.tokenValue = token.transaction
    }

    /// The store-level token.
    public var storeToken: StoreHistoryToken { StoreHistoryToken(storeIdentifier: storeIdentifier, transaction: tokenValue ?? 0) }

    /// The transaction number.
    public var id: Int64 { tokenValue ?? 0 }

    /// Commit order.
    public static func < (a: DefaultHistoryToken, b: DefaultHistoryToken) -> Bool { (a.tokenValue ?? 0) < (b.tokenValue ?? 0) }
}
