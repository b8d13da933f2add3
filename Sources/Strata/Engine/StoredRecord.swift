/// A record as the shared engine holds it: attribute values plus relationship targets as primary keys.
///
/// Keys instead of identifiers keep the hot path free of strings; the engine turns them into
/// `PersistentIdentifier`s only when it hands out a snapshot.
@_spi(StrataEngine) public struct StoredRecord: Sendable, Hashable {
    /// Attribute values in the entity's order.
    public internal(set) var attributes: [Value]
    /// Relationship targets in the entity's order.
    public internal(set) var links: [Link]

    /// Makes a record; `StoreState.load` checks it against the schema.
    public init(attributes: [Value], links: [Link]) {
        self.attributes = attributes
        self.links = links
    }
}

/// The targets of one relationship of a stored record, as primary keys of the destination entity.
@_spi(StrataEngine) public enum Link: Sendable, Hashable {
    /// A to-one target, or `nil`.
    case one(Int64?)
    /// To-many targets, in order.
    case many([Int64])

    /// The targets as a list.
    public var keys: [Int64] {
        switch self {
        case .one(let k): k.map { [$0] } ?? []
        case .many(let ks): ks
        }
    }

    /// The empty link for a relationship of this shape.
    static func empty(_ relationship: Relationship) -> Link {
        relationship.isToMany ? .many([]) : .one(nil)
    }
}

/// Identifies one record inside a store: its entity's index in the schema and its primary key.
///
/// The one key type of the engine's and the SQLite and LMDB save transactions' per-record maps.
/// Its hashing and equality are inlinable, so a backend in another module hashes it as fast as the
/// core does.
@frozen
public struct RecordKey: Hashable, Sendable {
    /// The entity's index in `Schema.entities`.
    public var entity: Int
    /// The record's primary key.
    public var key: Int64

    /// The key of record `key` of the entity at index `entity`.
    @inlinable
    public init(entity: Int, key: Int64) {
        self.entity = entity
        self.key = key
    }

    /// Whether both name the same record.
    @inlinable
    public static func == (a: RecordKey, b: RecordKey) -> Bool { a.entity == b.entity && a.key == b.key }

    /// Hashes the entity index and the key.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(key)
    }
}

/// The key of a unique constraint's values (normalized, see `Value.uniqueKey`), hashed once.
///
/// The hash of the values is computed when the key is made; the index's dictionary and its shard
/// choice then hash only that integer, so a string is hashed once per insert, not three times.
struct UniqueKey: ShardedKey {
    enum Parts: Hashable, Sendable {
        case single(Value)
        case composite([Value])
    }

    let parts: Parts
    private let digest: Int

    init(_ parts: Parts) {
        self.parts = parts
        var hasher = Hasher()
        hasher.combine(parts)
        self.digest = hasher.finalize()
    }

    /// High bits of the digest (the dictionary inside a shard uses all of it).
    var shard: Int { digest >> 20 }

    static func == (a: UniqueKey, b: UniqueKey) -> Bool { a.digest == b.digest && a.parts == b.parts }
    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
    /// The digest itself, mixed with the table's seed: the digest already came out of a seeded
    /// `Hasher`, so the dictionary does not need to run SipHash over it again on every insert and
    /// lookup (and on every rehash when a shard grows).
    func _rawHashValue(seed: Int) -> Int { digest ^ seed }
}
