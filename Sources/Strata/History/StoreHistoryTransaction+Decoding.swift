import Foundation

/// Reads both stored forms of a history transaction (docs/history.md, "Stored form"): the compact
/// form (version 2, marked by its first key `"v"`) that `encoded()` writes, and the first form
/// (version 1, the shape Swift's synthesized `Codable` gives the types, which `encode(to:)` still
/// writes) of every store written before it. Both give the same `StoreHistoryTransaction`.
extension StoreHistoryTransaction {
    private enum FirstFormKeys: String, CodingKey { case token, author, timestamp, changes }
    private enum CompactKeys: String, CodingKey { case version = "v", store = "s", number = "n", author = "a", timestamp = "t", changes = "c" }

    /// Decodes either stored form: the compact one when it has the key `"v"` (its version),
    /// else the first.
    ///
    /// - Throws: `DecodingError` for anything else, or a compact form of a later version.
    public init(from decoder: Decoder) throws {
        let compact = try decoder.container(keyedBy: CompactKeys.self)
        guard compact.contains(.version) else {
            let c = try decoder.container(keyedBy: FirstFormKeys.self)
            self.init(
                token: try c.decode(StoreHistoryToken.self, forKey: .token), author: try c.decodeIfPresent(String.self, forKey: .author),
                timestamp: try c.decode(Date.self, forKey: .timestamp), changes: try c.decode([StoreHistoryChange].self, forKey: .changes))
            return
        }
        let version = try compact.decode(Int.self, forKey: .version)
        guard version == 2 else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: compact, debugDescription: "history form \(version), newer than this Strata reads (2)")
        }
        let store = try compact.decode(String.self, forKey: .store)
        let milliseconds = try compact.decode(Double.self, forKey: .timestamp)
        self.init(
            token: StoreHistoryToken(storeIdentifier: store, transaction: try compact.decode(Int64.self, forKey: .number)),
            author: try compact.decodeIfPresent(String.self, forKey: .author), timestamp: Date(timeIntervalSince1970: milliseconds / 1000),
            changes: try compact.decode([CompactChange].self, forKey: .changes).map { $0.change(store: store) })
    }
}

/// A change in the compact form: `{"i"|"u"|"d": entity, "k": key, "s": store, "tmp": true,
/// "o": true, "a": [[name, old, new]], "r": [[name, old, new]], "x": {name: value}}`, every key
/// after `"k"` only when it is not the default (the transaction's store, false, empty).
private struct CompactChange: Decodable {
    private enum Keys: String, CodingKey {
        case insert = "i", update = "u", delete = "d", key = "k", store = "s", temporary = "tmp"
        case storeInitiated = "o", attributes = "a", relationships = "r", tombstone = "x"
    }

    var kind: StoreHistoryChange.Kind
    var identifier: CompactIdentifier
    var isStoreInitiated: Bool
    var attributes: [CompactPair<Value>]
    var relationships: [CompactPair<CompactRelationship>]
    var tombstone: [String: Value]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let entity: String
        if let name = try c.decodeIfPresent(String.self, forKey: .insert) {
            (kind, entity) = (.insert, name)
        } else if let name = try c.decodeIfPresent(String.self, forKey: .update) {
            (kind, entity) = (.update, name)
        } else {
            (kind, entity) = (.delete, try c.decode(String.self, forKey: .delete))
        }
        identifier = CompactIdentifier(
            entity: entity, key: try c.decode(Int64.self, forKey: .key), store: try c.decodeIfPresent(String.self, forKey: .store),
            isTemporary: try c.decodeIfPresent(Bool.self, forKey: .temporary) ?? false)
        isStoreInitiated = try c.decodeIfPresent(Bool.self, forKey: .storeInitiated) ?? false
        attributes = try c.decodeIfPresent([CompactPair<Value>].self, forKey: .attributes) ?? []
        relationships = try c.decodeIfPresent([CompactPair<CompactRelationship>].self, forKey: .relationships) ?? []
        tombstone = try c.decodeIfPresent([String: Value].self, forKey: .tombstone) ?? [:]
    }

    func change(store: String) -> StoreHistoryChange {
        StoreHistoryChange(
            kind, identifier.identifier(store: store), isStoreInitiated: isStoreInitiated,
            attributes: attributes.map { HistoryAttributeChange($0.name, old: $0.old, new: $0.new) },
            relationships: relationships.map { HistoryRelationshipChange($0.name, old: $0.old.value(store: store), new: $0.new.value(store: store)) },
            tombstone: tombstone)
    }
}

/// `[name, old, new]`.
private struct CompactPair<Element: Decodable>: Decodable {
    var name: String
    var old: Element
    var new: Element

    init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        name = try c.decode(String.self)
        old = try c.decode(Element.self)
        new = try c.decode(Element.self)
    }
}

/// `{"e": entity, "k": key}`, with `"s"` and `"tmp"` as in a change.
private struct CompactIdentifier: Decodable {
    private enum Keys: String, CodingKey { case entity = "e", key = "k", store = "s", temporary = "tmp" }

    var entity: String
    var key: Int64
    var store: String?
    var isTemporary: Bool

    init(entity: String, key: Int64, store: String?, isTemporary: Bool) {
        (self.entity, self.key, self.store, self.isTemporary) = (entity, key, store, isTemporary)
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            entity: try c.decode(String.self, forKey: .entity), key: try c.decode(Int64.self, forKey: .key),
            store: try c.decodeIfPresent(String.self, forKey: .store), isTemporary: try c.decodeIfPresent(Bool.self, forKey: .temporary) ?? false)
    }

    func identifier(store transactionStore: String) -> PersistentIdentifier {
        isTemporary
            ? PersistentIdentifier(temporaryFor: entity, number: key)
            : PersistentIdentifier(storeIdentifier: store ?? transactionStore, entityName: entity, primaryKey: key)
    }
}

/// A to-one target as `null` or an identifier, a to-many's as an array of identifiers.
private enum CompactRelationship: Decodable {
    case toOne(CompactIdentifier?)
    case toMany([CompactIdentifier])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .toOne(nil)
        } else if let many = try? c.decode([CompactIdentifier].self) {
            self = .toMany(many)
        } else {
            self = .toOne(try c.decode(CompactIdentifier.self))
        }
    }

    func value(store: String) -> RelationshipValue {
        switch self {
        case .toOne(let id): .toOne(id?.identifier(store: store))
        case .toMany(let ids): .toMany(ids.map { $0.identifier(store: store) })
        }
    }
}
