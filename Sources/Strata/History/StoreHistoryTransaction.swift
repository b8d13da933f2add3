import Foundation

/// One committed save, as the store's history records it: its token, who saved, when, and every
/// record it changed — the changes the store made on its own (cascaded deletes, nullified
/// inverses, ordered-list positions) included, flagged `isStoreInitiated`.
///
/// The store-level form of SwiftData's `HistoryTransaction`; the model layer presents it with
/// SwiftData's types (`DefaultHistoryTransaction`).
public struct StoreHistoryTransaction: Sendable, Hashable, Codable {
    /// The transaction's position in the store's history.
    public var token: StoreHistoryToken
    /// The author the save named (`SaveRequest.author`, SwiftData's `ModelContext.author`), if any.
    public var author: String?
    /// When the save committed (the writer's clock).
    public var timestamp: Date
    /// What changed: inserts, then updates, then deletes, each in entity then key order.
    public var changes: [StoreHistoryChange]

    /// Describes a transaction.
    public init(token: StoreHistoryToken, author: String?, timestamp: Date, changes: [StoreHistoryChange]) {
        self.token = token
        self.author = author
        self.timestamp = timestamp
        self.changes = changes
    }
}

/// One record's change in a history transaction.
///
/// An update carries every changed attribute's old and new value and every changed relationship's
/// old and new targets (SwiftData records only the names). A delete carries a tombstone: the last
/// value of every attribute of the deleted record (SwiftData keeps only the attributes marked
/// `.preserveValueOnDeletion`; the model layer shows those, the store keeps all so that it needs no
/// model-level option and a consumer of the store API learns what was deleted).
public struct StoreHistoryChange: Sendable, Hashable, Codable {
    /// What happened to the record.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The save inserted it.
        case insert
        /// The save changed stored values of it.
        case update
        /// The save deleted it.
        case delete
    }

    /// What happened.
    public var kind: Kind
    /// The record (its permanent identifier).
    public var identifier: PersistentIdentifier
    /// Whether the store made this change on its own (a cascade, a nullified or maintained inverse,
    /// a list reordered), not the request.
    public var isStoreInitiated: Bool
    /// For an update, the attributes whose value changed, with old and new values.
    public var attributes: [HistoryAttributeChange]
    /// For an update, the relationships whose targets (or their order) changed.
    public var relationships: [HistoryRelationshipChange]
    /// For a delete, every attribute's last value, by name.
    public var tombstone: [String: Value]

    /// Describes a change.
    public init(
        _ kind: Kind, _ identifier: PersistentIdentifier, isStoreInitiated: Bool = false,
        attributes: [HistoryAttributeChange] = [], relationships: [HistoryRelationshipChange] = [], tombstone: [String: Value] = [:]
    ) {
        self.kind = kind
        self.identifier = identifier
        self.isStoreInitiated = isStoreInitiated
        self.attributes = attributes
        self.relationships = relationships
        self.tombstone = tombstone
    }

    /// The names of the changed attributes and relationships (SwiftData's `updatedAttributes`).
    public var changedNames: [String] { attributes.map(\.name) + relationships.map(\.name) }
}

/// An attribute an update changed: its value before and after the save.
public struct HistoryAttributeChange: Sendable, Hashable, Codable {
    /// The attribute's name.
    public var name: String
    /// The stored value before the save.
    public var old: Value
    /// The stored value after it.
    public var new: Value

    /// Describes a changed attribute.
    public init(_ name: String, old: Value, new: Value) {
        self.name = name
        self.old = old
        self.new = new
    }
}

/// A relationship an update changed: its targets before and after the save (in list order for an
/// ordered to-many, so a reorder shows here).
public struct HistoryRelationshipChange: Sendable, Hashable, Codable {
    /// The relationship's name.
    public var name: String
    /// The targets before the save.
    public var old: RelationshipValue
    /// The targets after it.
    public var new: RelationshipValue

    /// Describes a changed relationship.
    public init(_ name: String, old: RelationshipValue, new: RelationshipValue) {
        self.name = name
        self.old = old
        self.new = new
    }
}
