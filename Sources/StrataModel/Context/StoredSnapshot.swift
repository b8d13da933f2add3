/// A stored record as the model layer holds it: the backend's own snapshot, read through
/// `DataStoreSnapshot`, never converted.
///
/// A backend whose snapshot type is `DefaultSnapshot` (most) has its snapshots kept inline, moved
/// from the fetch's array into the object without a copy. Any other type — SQLite's and LMDB's,
/// which keep the row or bytes as read and decode a value when it is read; CSV's rows of text — is
/// kept as it is, so a
/// property nobody reads is never decoded. Before, every such snapshot was converted to a
/// `DefaultSnapshot` as it was fetched (every value decoded, two arrays built), which gave back for
/// model users the gain of LMDB's lazily decoded snapshots (docs/benchmarks.md, "The model layer
/// on LMDB's own snapshots").
///
/// Another type is held in a class (`OtherRows`: a fetch's whole array, each record an index into
/// it), not an existential: an enum with an existential payload is address-only, and reading its
/// identifier or a value copied the whole payload out first (callgrind on the model-level scan:
/// twice the retains, +16 % on SQLite); and a class per record cost an allocation and the generic
/// class's metadata lookup each (1,130 instructions a record on LMDB's scan). As with LMDB's byte
/// blocks, a kept object keeps its fetch's snapshots alive until it is refreshed or released.
enum StoredSnapshot: Equatable, Sendable {
    /// A `DefaultSnapshot` (memory, JSON, XML, PostgreSQL, a migration's staging store).
    case plain(Strata.DefaultSnapshot)
    /// Any other backend's snapshot: record `index` of a fetch's rows.
    case other(OtherRows, index: Int)

    /// Wraps a backend's snapshot: a `DefaultSnapshot` inline, any other type as it is.
    @inline(__always)
    init<S: Strata.DataStoreSnapshot>(_ snapshot: S) {
        if S.self == Strata.DefaultSnapshot.self {
            self = .plain(_identicalCast(snapshot, to: Strata.DefaultSnapshot.self))
        } else {
            self = .other(TypedRow(snapshot), index: 0)
        }
    }

    /// The record's identifier.
    var persistentIdentifier: PersistentIdentifier {
        switch self {
        case .plain(let s): s.persistentIdentifier
        case .other(let rows, let i): rows.persistentIdentifier(i)
        }
    }

    /// The entity the record belongs to.
    var entity: EntitySchema {
        switch self {
        case .plain(let s): s.entity
        case .other(let rows, let i): rows.entity(i)
        }
    }

    /// The value of the attribute at `index` in the entity's attributes (decoded now, for a
    /// snapshot that decodes lazily).
    func attribute(at index: Int) -> Value {
        switch self {
        case .plain(let s): s.attributes[index]
        case .other(let rows, let i): rows.attributeValue(i, at: index)
        }
    }

    /// The value of the relationship at `index` in the entity's relationships.
    func relationship(at index: Int) -> RelationshipValue {
        switch self {
        case .plain(let s): s.relationships[index]
        case .other(let rows, let i): rows.relationshipValue(i, at: index)
        }
    }

    /// How many attributes the record has.
    var attributeCount: Int {
        switch self {
        case .plain(let s): s.attributes.count
        case .other(let rows, let i): rows.entity(i).attributes.count
        }
    }

    /// Every attribute value, in the entity's order.
    var attributeValues: [Value] {
        switch self {
        case .plain(let s): s.attributes
        case .other(let rows, let i): rows.attributeValues(i)
        }
    }

    /// Every relationship value, in the entity's order.
    var relationshipValues: [RelationshipValue] {
        switch self {
        case .plain(let s): s.relationships
        case .other(let rows, let i): rows.relationshipValues(i)
        }
    }

    /// The record as a `DefaultSnapshot`: itself, or every value decoded (a save that updates the
    /// record, a store whose entities are rewritten).
    var plain: Strata.DefaultSnapshot {
        switch self {
        case .plain(let s): s
        case .other(let rows, let i): Strata.DefaultSnapshot(entity: rows.entity(i), persistentIdentifier: rows.persistentIdentifier(i), attributes: rows.attributeValues(i), relationships: rows.relationshipValues(i))
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
            let box = TypedRows(rows)
            self = box.rows.indices.map { .other(box, index: $0) }
        }
    }
}

/// Another backend's snapshots — a fetch's rows, or one looked up — in a class, so that
/// `StoredSnapshot` stays loadable and a fetch makes one box, not one per record (see there).
/// `TypedRows` holds a fetch's values, `TypedRow` a point lookup's.
class OtherRows: @unchecked Sendable {  // no state of its own; subclasses hold `Sendable` values in a `let`
    /// Record `row`'s identifier.
    func persistentIdentifier(_ row: Int) -> PersistentIdentifier { preconditionFailure("every subclass overrides it") }
    /// Record `row`'s entity.
    func entity(_ row: Int) -> EntitySchema { preconditionFailure("every subclass overrides it") }
    /// Record `row`'s attribute value at `index`.
    func attributeValue(_ row: Int, at index: Int) -> Value { preconditionFailure("every subclass overrides it") }
    /// Record `row`'s relationship value at `index`.
    func relationshipValue(_ row: Int, at index: Int) -> RelationshipValue { preconditionFailure("every subclass overrides it") }
    /// Record `row`'s attribute values.
    func attributeValues(_ row: Int) -> [Value] { preconditionFailure("every subclass overrides it") }
    /// Record `row`'s relationship values.
    func relationshipValues(_ row: Int) -> [RelationshipValue] { preconditionFailure("every subclass overrides it") }
}

/// A backend's snapshots of type `S`, read through `DataStoreSnapshot`, with their identifiers.
///
/// The identifiers are read once, when the fetch's rows arrive, by the snapshot type's own
/// `persistentIdentifiers(of:)` (compiled for `S` in its backend's module), and kept: the context
/// reads every record's identifier at least once (the identity map's key, the object's
/// identifier), and reading it from a row here is generic code over `S` that cannot be specialized
/// (an array access, a witness call and a destroy through value witnesses: 307 instructions a
/// record on SQLite, against about 40 for a kept identifier's copy; docs/benchmarks.md, "Issue 31,
/// session 11"). It costs an identifier's 48 bytes a record for as long as the box lives.
final class TypedRows<S: Strata.DataStoreSnapshot>: OtherRows {
    let rows: [S]
    /// `rows`' identifiers, in the same order.
    let identifiers: [PersistentIdentifier]
    init(_ rows: [S]) {
        self.rows = rows
        identifiers = S.persistentIdentifiers(of: rows)
    }
    override func persistentIdentifier(_ row: Int) -> PersistentIdentifier { identifiers[row] }
    override func entity(_ row: Int) -> EntitySchema { rows[row].entity }
    override func attributeValue(_ row: Int, at index: Int) -> Value { rows[row].attributeValue(at: index) }
    override func relationshipValue(_ row: Int, at index: Int) -> RelationshipValue { rows[row].relationshipValue(at: index) }
    override func attributeValues(_ row: Int) -> [Value] { rows[row].attributeValues }
    override func relationshipValues(_ row: Int) -> [RelationshipValue] { rows[row].relationshipValues }
}

/// One backend snapshot of type `S` (a point lookup): one allocation, no array.
final class TypedRow<S: Strata.DataStoreSnapshot>: OtherRows {
    let row: S
    init(_ row: S) { self.row = row }
    override func persistentIdentifier(_: Int) -> PersistentIdentifier { row.persistentIdentifier }
    override func entity(_: Int) -> EntitySchema { row.entity }
    override func attributeValue(_: Int, at index: Int) -> Value { row.attributeValue(at: index) }
    override func relationshipValue(_: Int, at index: Int) -> RelationshipValue { row.relationshipValue(at: index) }
    override func attributeValues(_: Int) -> [Value] { row.attributeValues }
    override func relationshipValues(_: Int) -> [RelationshipValue] { row.relationshipValues }
}
