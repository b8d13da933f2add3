/// How `PredicateEvaluator` reads records of some representation.
///
/// The engine reads its `StoredRecord`s through one; a backend that holds its own snapshots can
/// read those through `SnapshotReader`. `Key` is whatever the representation uses to point at
/// another record (a primary key, a `PersistentIdentifier`).
public protocol PredicateReader {
    /// A record.
    associatedtype Record
    /// How records point at each other.
    associatedtype Key: Hashable
    /// The attribute at `index` of the entity's attributes.
    func attribute(_ record: Record, _ index: Int) -> Value
    /// The target of the to-one relationship at `index`.
    func toOne(_ record: Record, _ index: Int) -> Key?
    /// Whether the to-many relationship at `index` holds `key`.
    func toMany(_ record: Record, _ index: Int, contains key: Key) -> Bool
    /// Calls `body` with each target of the to-many relationship at `index`, stopping when it
    /// returns `false` (the to-many tests stop at the first witness).
    func forEachTarget(_ record: Record, _ index: Int, _ body: (Key) -> Bool)
    /// How many targets the to-many relationship at `index` has (a reader with a cheaper count than
    /// visiting every target provides its own).
    func targetCount(_ record: Record, _ index: Int) -> Int
    /// The record's own key.
    func key(of record: Record) -> Key
    /// The key an identifier of `entity` has here, or `nil` if it cannot name one of its records.
    func key(for identifier: PersistentIdentifier, in entity: EntitySchema) -> Key?
    /// The record of `entity` with this key, if it exists (a path through a dangling to-one is `nil`).
    func record(_ entity: EntitySchema, _ key: Key) -> Record?
}

extension PredicateReader {
    /// Counts by visiting every target.
    public func targetCount(_ record: Record, _ index: Int) -> Int {
        var n = 0
        forEachTarget(record, index) { _ in n += 1; return true }
        return n
    }
}

/// Reads `DataStoreSnapshot`s, resolving to-one paths through a lookup the caller provides.
public struct SnapshotReader<Snapshot: DataStoreSnapshot>: PredicateReader {
    /// Finds a snapshot by identifier (for paths through relationships).
    public var lookup: (PersistentIdentifier) -> Snapshot?

    /// A reader with a lookup for relationship paths.
    public init(lookup: @escaping (PersistentIdentifier) -> Snapshot?) { self.lookup = lookup }

    /// The attribute value.
    public func attribute(_ record: Snapshot, _ index: Int) -> Value { record.attributeValue(at: index) }
    /// The to-one target.
    public func toOne(_ record: Snapshot, _ index: Int) -> PersistentIdentifier? { record.relationshipValue(at: index).target }
    /// Whether the to-many holds `key`.
    public func toMany(_ record: Snapshot, _ index: Int, contains key: PersistentIdentifier) -> Bool {
        record.relationshipValue(at: index).targets.contains(key)
    }
    /// Visits the to-many's targets.
    public func forEachTarget(_ record: Snapshot, _ index: Int, _ body: (PersistentIdentifier) -> Bool) {
        for target in record.relationshipValue(at: index).targets where !body(target) { return }
    }
    /// The to-many's length.
    public func targetCount(_ record: Snapshot, _ index: Int) -> Int { record.relationshipValue(at: index).targets.count }
    /// The snapshot's identifier.
    public func key(of record: Snapshot) -> PersistentIdentifier { record.persistentIdentifier }
    /// Identifiers are their own keys.
    public func key(for identifier: PersistentIdentifier, in entity: EntitySchema) -> PersistentIdentifier? { identifier }
    /// Looks the snapshot up.
    public func record(_ entity: EntitySchema, _ key: PersistentIdentifier) -> Snapshot? { lookup(key) }
}
