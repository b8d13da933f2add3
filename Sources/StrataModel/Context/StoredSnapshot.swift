/// A stored record as the model layer holds it: the backend's own snapshot, read through
/// `DataStoreSnapshot`, never converted.
///
/// A backend whose snapshot type is `DefaultSnapshot` (most) has its snapshots kept inline, moved
/// from the fetch's array into the object without a copy. Any other type — LMDB's, which keeps the
/// stored bytes and decodes a value when it is read; CSV's rows of text — is kept as it is, so a
/// property nobody reads is never decoded. Before, every such snapshot was converted to a
/// `DefaultSnapshot` as it was fetched (every value decoded, two arrays built), which gave back for
/// model users the gain of LMDB's lazily decoded snapshots (docs/benchmarks.md, "The model layer
/// on LMDB's own snapshots").
///
/// Another type is held in a class (`OtherSnapshot`), not an existential: an enum with an
/// existential payload is address-only, and reading its identifier or a value copied the whole
/// payload out first (callgrind on the model-level scan: twice the retains, +16 % on SQLite).
enum StoredSnapshot: Equatable, Sendable {
    /// A `DefaultSnapshot` (SQLite, memory, JSON, XML, PostgreSQL, a migration's staging store).
    case plain(Strata.DefaultSnapshot)
    /// Any other backend's snapshot.
    case other(OtherSnapshot)

    /// Wraps a backend's snapshot: a `DefaultSnapshot` inline, any other type as it is.
    @inline(__always)
    init<S: Strata.DataStoreSnapshot>(_ snapshot: S) {
        if S.self == Strata.DefaultSnapshot.self {
            self = .plain(_identicalCast(snapshot, to: Strata.DefaultSnapshot.self))
        } else {
            self = .other(TypedSnapshot(snapshot))
        }
    }

    /// The record's identifier.
    var persistentIdentifier: PersistentIdentifier {
        switch self {
        case .plain(let s): s.persistentIdentifier
        case .other(let s): s.persistentIdentifier
        }
    }

    /// The entity the record belongs to.
    var entity: EntitySchema {
        switch self {
        case .plain(let s): s.entity
        case .other(let s): s.entity
        }
    }

    /// The value of the attribute at `index` in the entity's attributes (decoded now, for a
    /// snapshot that decodes lazily).
    func attribute(at index: Int) -> Value {
        switch self {
        case .plain(let s): s.attributes[index]
        case .other(let s): s.attributeValue(at: index)
        }
    }

    /// The value of the relationship at `index` in the entity's relationships.
    func relationship(at index: Int) -> RelationshipValue {
        switch self {
        case .plain(let s): s.relationships[index]
        case .other(let s): s.relationshipValue(at: index)
        }
    }

    /// How many attributes the record has.
    var attributeCount: Int {
        switch self {
        case .plain(let s): s.attributes.count
        case .other(let s): s.entity.attributes.count
        }
    }

    /// Every attribute value, in the entity's order.
    var attributeValues: [Value] {
        switch self {
        case .plain(let s): s.attributes
        case .other(let s): s.attributeValues
        }
    }

    /// Every relationship value, in the entity's order.
    var relationshipValues: [RelationshipValue] {
        switch self {
        case .plain(let s): s.relationships
        case .other(let s): s.relationshipValues
        }
    }

    /// The record as a `DefaultSnapshot`: itself, or every value decoded (a save that updates the
    /// record, a store whose entities are rewritten).
    var plain: Strata.DefaultSnapshot {
        switch self {
        case .plain(let s): s
        case .other(let s): Strata.DefaultSnapshot(entity: s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributeValues, relationships: s.relationshipValues)
        }
    }

    /// The same record with the same values: two `DefaultSnapshot`s as they compare, any other pair
    /// by identifier, entity and values.
    static func == (a: StoredSnapshot, b: StoredSnapshot) -> Bool {
        if case .plain(let x) = a, case .plain(let y) = b { return x == y }
        return a.persistentIdentifier == b.persistentIdentifier && a.entity === b.entity
            && a.attributeValues == b.attributeValues && a.relationshipValues == b.relationshipValues
    }
}

extension Array where Element == StoredSnapshot {
    /// A backend's fetched snapshots, each moved into its wrapper (a `DefaultSnapshot` is not
    /// copied: the array is consumed from its end, as `ModelContext.registerAll` consumes this one).
    @inline(__always)
    init<S: Strata.DataStoreSnapshot>(taking rows: consuming [S]) {
        if S.self == Strata.DefaultSnapshot.self {
            var rest = _identicalCast(consume rows, to: [Strata.DefaultSnapshot].self)
            let count = rest.count
            self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
                var i = count
                while i > 0 {
                    i -= 1
                    (buffer.baseAddress! + i).initialize(to: .plain(rest.removeLast()))
                }
                initialized = count
            }
        } else {
            self = rows.map { .other(TypedSnapshot($0)) }
        }
    }
}

/// Another backend's snapshot in a class, so that `StoredSnapshot` stays loadable (see there);
/// `TypedSnapshot` holds the value, one allocation per record.
class OtherSnapshot: @unchecked Sendable {  // no state of its own; `TypedSnapshot` holds a `Sendable` value in a `let`
    /// The record's identifier.
    var persistentIdentifier: PersistentIdentifier { preconditionFailure("TypedSnapshot overrides it") }
    /// The entity.
    var entity: EntitySchema { preconditionFailure("TypedSnapshot overrides it") }
    /// The attribute value at `index`.
    func attributeValue(at index: Int) -> Value { preconditionFailure("TypedSnapshot overrides it") }
    /// The relationship value at `index`.
    func relationshipValue(at index: Int) -> RelationshipValue { preconditionFailure("TypedSnapshot overrides it") }
    /// Every attribute value.
    var attributeValues: [Value] { preconditionFailure("TypedSnapshot overrides it") }
    /// Every relationship value.
    var relationshipValues: [RelationshipValue] { preconditionFailure("TypedSnapshot overrides it") }
}

/// A backend's snapshot of type `S`, read through `DataStoreSnapshot`.
final class TypedSnapshot<S: Strata.DataStoreSnapshot>: OtherSnapshot {
    let value: S
    init(_ value: S) { self.value = value }
    override var persistentIdentifier: PersistentIdentifier { value.persistentIdentifier }
    override var entity: EntitySchema { value.entity }
    override func attributeValue(at index: Int) -> Value { value.attributeValue(at: index) }
    override func relationshipValue(at index: Int) -> RelationshipValue { value.relationshipValue(at: index) }
    override var attributeValues: [Value] { value.attributeValues }
    override var relationshipValues: [RelationshipValue] { value.relationshipValues }
}
