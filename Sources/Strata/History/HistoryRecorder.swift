import Foundation

/// Builds the history transaction of one save from what a backend's save transaction knows: each
/// changed record's values before and after. Written once for every backend (the shared engine,
/// SQLite, LMDB), so they record the same changes the same way.
///
/// A change is request-initiated when the request named the record (inserted, updated or deleted
/// it); any other is the store's own (`isStoreInitiated`). An update that changed no stored value
/// records nothing.
@_spi(StrataEngine) public struct HistoryRecorder: Sendable {
    private var inserts = RecordedChanges()
    private var updates = RecordedChanges()
    private var deletes = RecordedChanges()
    private let requested: Requested
    private let storeIdentifier: String

    /// The permanent identifiers the request updated or deleted: one kept as it is for the
    /// commonest save (one record updated), which builds no set (1,500 instructions a save).
    @usableFromInline enum Requested: Sendable {
        case one(PersistentIdentifier)
        case set(Set<PersistentIdentifier>)

        func contains(_ id: PersistentIdentifier) -> Bool {
            switch self {
            case .one(let only): only == id
            case .set(let set): set.contains(id)
            }
        }
    }

    /// A recorder for one save; `requested`: the permanent identifiers the request updated or deleted.
    public init(storeIdentifier: String, requested: Set<PersistentIdentifier>) {
        self.init(storeIdentifier: storeIdentifier, requested: .set(requested))
    }

    @usableFromInline init(storeIdentifier: String, requested: Requested) {
        self.storeIdentifier = storeIdentifier
        self.requested = requested
    }

    /// A recorder for the save of `request` (the records it updated or deleted are its own changes;
    /// any other is the store's). Inlinable, so a backend's call is specialized for its snapshot
    /// type: unspecialized, reading the request's one identifier cost 1,400 instructions a save.
    @inlinable public init<S: DataStoreSnapshot>(storeIdentifier: String, request: SaveRequest<S>) {
        if request.updated.count == 1 && request.deleted.isEmpty {
            self.init(storeIdentifier: storeIdentifier, requested: .one(request.updated[0].persistentIdentifier))
        } else {
            self.init(storeIdentifier: storeIdentifier, requested: .set(Self.requested(request)))
        }
    }

    /// The permanent identifiers a request updates or deletes.
    public static func requested<S: DataStoreSnapshot>(_ request: SaveRequest<S>) -> Set<PersistentIdentifier> {
        // Closures, not key paths: a key path over the generic snapshot type is built at run time on
        // every call (about 20,000 instructions, a third of an LMDB update-one's history cost).
        var requested = Set<PersistentIdentifier>(minimumCapacity: request.updated.count + request.deleted.count)
        for snapshot in request.updated { requested.insert(snapshot.persistentIdentifier) }
        for snapshot in request.deleted { requested.insert(snapshot.persistentIdentifier) }
        return requested
    }

    private func identifier(_ entity: EntitySchema, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, primaryKey: key)
    }

    /// Records an insert.
    public mutating func inserted(_ entity: EntitySchema, _ key: Int64) { recordInsert(entity, key) }

    @usableFromInline mutating func recordInsert(_ entity: EntitySchema, _ key: Int64) {
        inserts.append(RecordKey(entity: entity.index, key: key), StoreHistoryChange(.insert, identifier(entity, key)))
    }

    /// Makes room for `count` more inserts, for a save that knows how many it inserts (an insert of
    /// 10,100 records spent 3.8 M instructions growing the list one doubling at a time).
    public mutating func reserveInserts(_ count: Int) { inserts.reserve(count) }

    /// A record's values: its attributes and relationships (as identifiers), in schema order.
    public typealias Values = (attributes: [Value], relationships: [RelationshipValue])

    /// Records an update from the record's values before and after the save (relationships as
    /// identifiers); nothing if no value differs.
    public mutating func updated(_ entity: EntitySchema, _ key: Int64, old: Values, new: Values) {
        var attributes: [HistoryAttributeChange] = []
        for i in entity.attributes.indices where i < old.attributes.count && i < new.attributes.count && old.attributes[i] != new.attributes[i] {
            attributes.append(HistoryAttributeChange(entity.attributes[i].name, old: old.attributes[i], new: new.attributes[i]))
        }
        var relationships: [HistoryRelationshipChange] = []
        for r in entity.relationships.indices where r < old.relationships.count && r < new.relationships.count {
            let before = old.relationships[r], after = new.relationships[r]
            if Self.same(before, after, ordered: entity.relationships[r].isOrdered || !entity.relationships[r].isToMany) { continue }
            relationships.append(HistoryRelationshipChange(entity.relationships[r].name, old: before, new: after))
        }
        guard !attributes.isEmpty || !relationships.isEmpty else { return }
        let id = identifier(entity, key)
        updates.append(RecordKey(entity: entity.index, key: key), StoreHistoryChange(.update, id, isStoreInitiated: !requested.contains(id), attributes: attributes, relationships: relationships))
    }

    /// Records a delete with the record's last attribute values as its tombstone.
    public mutating func deleted(_ entity: EntitySchema, _ key: Int64, attributes: [Value]) {
        var tombstone = [String: Value](minimumCapacity: entity.attributes.count)
        for (i, a) in entity.attributes.enumerated() where i < attributes.count { tombstone[a.name] = attributes[i] }
        let id = identifier(entity, key)
        deletes.append(RecordKey(entity: entity.index, key: key), StoreHistoryChange(.delete, id, isStoreInitiated: !requested.contains(id), tombstone: tombstone))
    }

    /// Whether nothing was recorded.
    public var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty }

    /// The transaction: inserts, updates, deletes, each in entity then key order. Its timestamp is
    /// kept in whole milliseconds, the precision every store writes (`encoded()`), so a transaction
    /// read back after a reopen equals the one a store kept in memory.
    public func transaction(_ number: Int64, author: String?, timestamp: Date = Date()) -> StoreHistoryTransaction {
        let timestamp = Self.milliseconds(timestamp)
        let token = StoreHistoryToken(storeIdentifier: storeIdentifier, transaction: number)
        if inserts.count + updates.count + deletes.count == 1 {
            // One change (a one-record save): no sorting, no arrays joined.
            return StoreHistoryTransaction(token: token, author: author, timestamp: timestamp, changes: [only])
        }
        // Changes recorded in order (an insert's records, the commonest large save) are handed on
        // as they are: no sort and, for one kind of change, no copy.
        let kinds = [inserts, updates, deletes].filter { $0.count > 0 }
        let changes = kinds.count == 1 ? kinds[0].ordered() : kinds.flatMap { $0.ordered() }
        return StoreHistoryTransaction(token: token, author: author, timestamp: timestamp, changes: changes)
    }

    /// The one change of a one-change save.
    private var only: StoreHistoryChange { inserts.changes.first ?? updates.changes.first ?? deletes.changes[0] }

    /// The encoded transaction (`transaction(_:author:timestamp:)`.`withEncoded`), handed to `body`:
    /// a one-change transaction, the commonest, is written from the recorded change itself, with no
    /// transaction value built and destroyed (900 instructions of a one-record save).
    public func withEncodedTransaction<R>(
        _ number: Int64, author: String?, timestamp: Date = Date(), _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        guard inserts.count + updates.count + deletes.count == 1 else {
            return try transaction(number, author: author, timestamp: timestamp).withEncoded(body)
        }
        var w = HistoryJSONWriter(capacity: 448)
        defer { w.deallocate() }
        w.transaction(
            token: StoreHistoryToken(storeIdentifier: storeIdentifier, transaction: number), author: author,
            timestamp: Self.milliseconds(timestamp), changes: CollectionOfOne(only))
        return try body(w.written)
    }

    /// `timestamp` in whole milliseconds, the precision every store writes (`encoded()`).
    private static func milliseconds(_ timestamp: Date) -> Date {
        Date(timeIntervalSince1970: (timestamp.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    private static func same(_ a: RelationshipValue, _ b: RelationshipValue, ordered: Bool) -> Bool {
        if ordered { return a == b }
        guard case .toMany(let x) = a, case .toMany(let y) = b else { return a == b }
        return x.count == y.count && Set(x) == Set(y)
    }
}
