import Foundation
@_spi(StrataEngine) import Strata

/// The LMDB backend's snapshot: a record read from the store keeps its stored bytes and decodes a
/// value when it is read; a snapshot built from values (a save's request, a filter's result, a save
/// result's changed records) keeps the values.
///
/// A fetch checks each record's bytes completely before handing them over (`LMDBRecordCodec.check`:
/// the checksum, and record version 4's slots and ends or every tag and length of an older
/// version), so damage is still a `corruptStore` error of the fetch and reading a value later
/// cannot fail; a version-4 value is read at its offset. The bytes are copied out of the page
/// (valid only inside its read transaction) into a shared block, `LMDBBytes`: a scan fills one
/// block with many records, so a scanned record costs no allocation of its own. Building a `DefaultSnapshot` per record instead —
/// an attribute array, a relationship array, a string per text value, an identifier — cost twelve
/// times what raw C LMDB pays to read it (docs/benchmarks.md, "LMDB against its goals"; limits:
/// Benchmarks/Thresholds/lmdb-scan.txt and lmdb-fetch-by-id.txt). It conforms to `DataStoreSnapshot`
/// like `CSVSnapshot`, so the suite, the model layer and every caller use it through the protocol.
///
/// `@unchecked Sendable`: everything it references is immutable once the fetch hands it over
/// (`LMDBBytes` is a `ManagedBuffer`, which cannot declare itself `Sendable`).
///
/// A block lives as long as any snapshot of it: keeping one snapshot of a large scan keeps its block
/// (at most `LMDBBytes.blockSize` bytes) alive.
public struct LMDBSnapshot: DataStoreSnapshot, @unchecked Sendable {
    /// `LMDBValues`, `LMDBBytes`, or `LMDBLinkedBytes`, as `kind` says (one reference: copying or
    /// destroying a snapshot is one retain or release, no switch over cases). The entity is held
    /// there too (a block holds one entity's records), so a scan's snapshot is 32 bytes and one
    /// retain: the result array of a large scan is memory written for the first time, and its
    /// size is part of the scan's cost (limit: Benchmarks/Thresholds/lmdb-scan.txt).
    private let storage: AnyObject
    /// The stored record's key (stored kinds).
    private let key: Int64
    /// Where the record's bytes start in the block, and how many there are (stored kinds; LMDB
    /// holds no value of more than `UInt32.max` bytes, and `LMDBRecords` refuses one).
    private let offset: UInt32, count: UInt32
    /// Where the to-ones start within the record (stored kinds; `LMDBRecordCodec.check`).
    private let links: UInt32
    private let kind: Kind

    private enum Kind: UInt8 {
        /// `storage` is an `LMDBValues`.
        case values
        /// `storage` is the `LMDBBytes` block; the to-ones are decoded from the bytes.
        case bytes
        /// `storage` is an `LMDBLinkedBytes`: the block and the relationship values read with the record.
        case linkedBytes
    }

    /// The entity.
    public var entity: EntitySchema {
        switch kind {
        case .values: values.entity
        case .bytes: unsafeDowncast(storage, to: LMDBBytes.self).header.shape.entity
        case .linkedBytes: unsafeDowncast(storage, to: LMDBLinkedBytes.self).block.header.shape.entity
        }
    }

    /// Builds a snapshot from values in the entity's order.
    public init(entity: EntitySchema, persistentIdentifier: PersistentIdentifier, attributes: [Value], relationships: [RelationshipValue]) {
        storage = LMDBValues(entity, persistentIdentifier, attributes, relationships)
        key = 0
        offset = 0
        count = 0
        links = 0
        kind = .values
    }

    /// A snapshot of a record's checked bytes in `block` (whose entity it is); `relationships`
    /// when the entity has a to-many (its lists were read with the record).
    @inline(__always)
    init(key: Int64, block: LMDBBytes, at offset: Int, count: Int, links: Int, relationships: [RelationshipValue]?) {
        self.key = key
        self.offset = UInt32(truncatingIfNeeded: offset)
        self.count = UInt32(truncatingIfNeeded: count)
        self.links = UInt32(truncatingIfNeeded: links)
        if let relationships {
            storage = LMDBLinkedBytes(block, relationships)
            kind = .linkedBytes
        } else {
            storage = block
            kind = .bytes
        }
    }

    private var values: LMDBValues { unsafeDowncast(storage, to: LMDBValues.self) }

    private var block: LMDBBytes {
        kind == .bytes ? unsafeDowncast(storage, to: LMDBBytes.self) : unsafeDowncast(storage, to: LMDBLinkedBytes.self).block
    }

    /// Runs `body` with the record's bytes (stored kinds).
    @inline(__always)
    private func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        block.withUnsafeMutablePointerToElements { body(UnsafeRawBufferPointer(start: $0 + Int(offset), count: Int(count))) }
    }

    /// The record's identifier.
    public var persistentIdentifier: PersistentIdentifier {
        if kind == .values { return values.id }
        let header = block.header
        return PersistentIdentifier(storeIdentifier: header.storeIdentifier, entityName: header.shape.entity.name, primaryKey: key)
    }

    /// The attribute value at `index`, decoded from the stored bytes when the snapshot has them.
    public func attributeValue(at index: Int) -> Value {
        if kind == .values { return values.attributes[index] }
        let shape = block.header.shape
        return withBytes { LMDBRecordCodec.checkedValue(at: index, $0, shape) }
    }

    /// Every attribute value, decoded in one pass from the stored bytes when the snapshot has them.
    public var attributeValues: [Value] {
        if kind == .values { return values.attributes }
        let shape = block.header.shape
        return withBytes { LMDBRecordCodec.checkedValues($0, shape) }
    }

    /// The relationship value at `index`.
    public func relationshipValue(at index: Int) -> RelationshipValue {
        switch kind {
        case .values: values.relationships[index]
        case .linkedBytes: unsafeDowncast(storage, to: LMDBLinkedBytes.self).relationships[index]
        case .bytes: decodedRelationships()[index]
        }
    }

    /// Every relationship value.
    public var relationshipValues: [RelationshipValue] {
        switch kind {
        case .values: values.relationships
        case .linkedBytes: unsafeDowncast(storage, to: LMDBLinkedBytes.self).relationships
        case .bytes: decodedRelationships()
        }
    }

    /// The attribute named `name`, `.null` for a name the entity lacks (as `DefaultSnapshot`'s).
    public subscript(_ name: String) -> Value {
        entity.attributeIndex(name).map(attributeValue(at:)) ?? .null
    }

    /// `relationshipValues`, under the name the save transaction's history reads.
    var relationships: [RelationshipValue] { relationshipValues }

    /// The to-ones decoded from the bytes (an entity without to-many relationships).
    private func decodedRelationships() -> [RelationshipValue] {
        let header = block.header
        let shape = header.shape
        let names = shape.entity.destinationNames
        let store = header.storeIdentifier
        var result: [RelationshipValue] = []
        result.reserveCapacity(names.count)
        withBytes { bytes in
            LMDBRecordCodec.checkedToOne(bytes, shape, links: Int(links)) { r, target in
                while result.count < r { result.append(.toOne(nil)) }
                result.append(.toOne(PersistentIdentifier(storeIdentifier: store, entityName: names[r], primaryKey: target)))
            }
        }
        while result.count < names.count { result.append(.toOne(nil)) }
        return result
    }
}

/// A snapshot's values, when it was built from values.
final class LMDBValues {
    let entity: EntitySchema
    let id: PersistentIdentifier
    let attributes: [Value]
    let relationships: [RelationshipValue]

    init(_ entity: EntitySchema, _ id: PersistentIdentifier, _ attributes: [Value], _ relationships: [RelationshipValue]) {
        self.entity = entity
        self.id = id
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// A stored record's block and the relationship values read with it (an entity with a to-many).
final class LMDBLinkedBytes {
    let block: LMDBBytes
    let relationships: [RelationshipValue]

    init(_ block: LMDBBytes, _ relationships: [RelationshipValue]) {
        self.block = block
        self.relationships = relationships
    }
}

/// Records' bytes copied out of their pages, one after another in one heap block; immutable once
/// the fetch that fills it returns (a record's bytes are never written again once a snapshot
/// names them), so the snapshots holding it can be shared between threads.
final class LMDBBytes: ManagedBuffer<LMDBBytes.Header, UInt8> {
    /// The block's size in a scan: large enough that the allocation is a small part of a record's
    /// cost, small enough that one kept snapshot does not hold much memory.
    static let blockSize = 32 << 10

    /// The entity of every record in the block and the store identifier every snapshot's
    /// identifier names (`LMDBBlocks` keeps track of how full it is while a fetch fills it).
    struct Header {
        /// The records' entity and where their values sit.
        let shape: LMDBRecordShape
        let storeIdentifier: String
    }

    /// A new empty block of at least `capacity` bytes.
    static func make(capacity: Int, shape: LMDBRecordShape, storeIdentifier: String) -> LMDBBytes {
        let buffer = create(minimumCapacity: capacity) { _ in Header(shape: shape, storeIdentifier: storeIdentifier) }
        return unsafeDowncast(buffer, to: LMDBBytes.self)
    }
}
