import Foundation
@_spi(StrataEngine) import Strata

/// The SQLite backend's snapshot: a fetched record keeps its row as SQLite gave it (`SQLiteRows`)
/// and decodes a value when it is read; a snapshot built from values (a save's request, a save
/// result's changed records, an entity of more than 64 properties) keeps the values.
///
/// Why: building a `DefaultSnapshot` per fetched row — an attribute array, a relationship array, a
/// `String` per text column, an identifier with two strings — cost more than SQLite's own stepping,
/// and more than a GRDB record's whole row (docs/benchmarks.md, "Model layer against GRDB's
/// hand-written records"; limit: Benchmarks/Thresholds/sqlite-scan.txt). A scan copies each row's
/// columns into a shared block instead, as `LMDBSnapshot` keeps LMDB's bytes. What can be damaged
/// (a blob, a URL, a UUID) is decoded and checked while the fetch reads the row, so a damaged value
/// is still the fetch's typed error and reading a value later cannot fail.
///
/// It conforms to `DataStoreSnapshot` like `LMDBSnapshot`, so the suite, the model layer and every
/// caller use it through the protocol. `@unchecked Sendable`: everything it references is immutable
/// once the fetch hands it over (`SQLiteRows` is a `ManagedBuffer`, which cannot declare itself
/// `Sendable`).
public struct SQLiteSnapshot: DataStoreSnapshot, @unchecked Sendable {
    /// `SQLiteValues` or `SQLiteRows`, as `row` says (one reference: copying or destroying a
    /// snapshot is one retain or release).
    private let storage: AnyObject
    /// The record's key (a stored row).
    private let key: Int64
    /// Where the row starts in the block, in words; `-1` when `storage` holds values.
    private let row: Int

    /// Builds a snapshot from values in the entity's order.
    public init(entity: EntitySchema, persistentIdentifier: PersistentIdentifier, attributes: [Value], relationships: [RelationshipValue]) {
        storage = SQLiteValues(DefaultSnapshot(entity: entity, persistentIdentifier: persistentIdentifier, attributes: attributes, relationships: relationships))
        key = 0
        row = -1
    }

    /// A snapshot holding `values`.
    init(_ values: DefaultSnapshot) {
        storage = SQLiteValues(values)
        key = 0
        row = -1
    }

    /// A snapshot of the row of record `key` at word `row` of `block`.
    @inline(__always)
    init(key: Int64, block: SQLiteRows, row: Int) {
        storage = block
        self.key = key
        self.row = row
    }

    private var values: DefaultSnapshot { unsafeDowncast(storage, to: SQLiteValues.self).snapshot }
    private var block: SQLiteRows { unsafeDowncast(storage, to: SQLiteRows.self) }

    /// The entity.
    public var entity: EntitySchema {
        row < 0 ? values.entity : block.withUnsafeMutablePointerToHeader { $0.pointee.layout.entity }
    }

    /// The record's identifier.
    ///
    /// The block's header is read through its pointer, field by field: `block.header` is a class's
    /// stored property, so reading it ran a run-time exclusivity check and copied the whole header
    /// (its layout's arrays, the decoded values) to take two strings from it, about 110 of the
    /// getter's 150 instructions (callgrind, model-level scan; docs/benchmarks.md, "Issue 31,
    /// session 11").
    public var persistentIdentifier: PersistentIdentifier {
        if row < 0 { return values.persistentIdentifier }
        let key = key
        return block.withUnsafeMutablePointerToHeader {
            PersistentIdentifier(storeIdentifier: $0.pointee.storeIdentifier, entityName: $0.pointee.layout.entity.name, primaryKey: key)
        }
    }

    /// The attribute value at `index`, decoded from the row when the snapshot has one.
    public func attributeValue(at index: Int) -> Value {
        row < 0 ? values.attributes[index] : block.attribute(index, row: row)
    }

    /// The relationship value at `index`.
    public func relationshipValue(at index: Int) -> RelationshipValue {
        row < 0 ? values.relationships[index] : block.relationship(index, row: row)
    }

    /// Every attribute value, in the entity's order.
    public var attributeValues: [Value] {
        if row < 0 { return values.attributes }
        let block = block, count = block.header.layout.reads.count
        var result: [Value] = []
        result.reserveCapacity(count)
        for i in 0..<count { result.append(block.attribute(i, row: row)) }
        return result
    }

    /// Every relationship value, in the entity's order.
    public var relationshipValues: [RelationshipValue] {
        if row < 0 { return values.relationships }
        let block = block, count = block.header.layout.relationshipQueries.count
        var result: [RelationshipValue] = []
        result.reserveCapacity(count)
        for r in 0..<count { result.append(block.relationship(r, row: row)) }
        return result
    }

    /// The record as a `DefaultSnapshot` (every value decoded).
    var plain: DefaultSnapshot {
        if row < 0 { return values }
        return DefaultSnapshot(entity: entity, persistentIdentifier: persistentIdentifier, attributes: attributeValues, relationships: relationshipValues)
    }

    /// The attribute named `name`, `.null` for a name the entity lacks (as `DefaultSnapshot`'s).
    public subscript(_ name: String) -> Value {
        entity.attributeIndex(name).map(attributeValue(at:)) ?? .null
    }
}

/// A snapshot's values, when it was built from values.
final class SQLiteValues {
    let snapshot: DefaultSnapshot
    init(_ snapshot: DefaultSnapshot) { self.snapshot = snapshot }
}
