import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// Applies one save inside one LMDB write transaction, with the contract's semantics.
///
/// The order is the shared engine's: permanent keys for every insert first; inserts and updates;
/// relationship changes, each compared with the record as stored before the save and applied as edge
/// additions and removals in request order; deletes with their rules over everything stored;
/// validation; then the records, unique constraints, indexes and key counters are written. Records
/// read or changed during the save are held in a cache (inserts in one array per entity, since their
/// keys are contiguous) and written once at the end; to-many lists are changed in place in their
/// databases. Any error leaves the transaction to be aborted, so a failed save changes nothing.
final class LMDBSaveTransaction {
    typealias Key = RecordKey

    struct Write {
        let entity: EntitySchema
        let key: Int64
        let isInsert: Bool
        /// The relationships the request sent; empty for an insert of an entity without to-many
        /// relationships, whose to-ones are in `sentToOne` (`sentLink(_:_:)` reads either).
        let sent: [Link]
        /// For an update, the relationships as stored before the save.
        var stored: [Link]
        /// For an update, the attributes it writes (a partial update's merged over the stored ones).
        var attributes: [Value] = []
    }

    struct Cached {
        var original: LMDBRecord?
        var current: LMDBRecord?
        var dirty: Bool
    }

    struct Slot: Hashable {
        let entity: Int
        let key: Int64
        let relationship: Int
    }

    let txn: OpaquePointer
    let layout: LMDBLayout
    let records: LMDBRecords
    let storeIdentifier: String
    let entities: [EntitySchema]
    /// Whether each entity (by index) has a to-many relationship.
    let hasToMany: [Bool]

    // The mutable state below is touched by one thread, inside one write transaction, and no
    // closure that changes it reads it back (`modify`'s bodies change only the record they are
    // given), so its accesses never overlap: `@exclusivity(unchecked)` drops the run-time check the
    // compiler otherwise makes on every access to a class's stored property, tens per inserted
    // record (limit: Benchmarks/Thresholds/lmdb-insert.txt).
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md, "Internal checks")
    @exclusivity(unchecked)
    #endif
    private(set) var remap = IdentifierRemapping()
    /// Per entity, the first key this save assigns (the stored counter).
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var firstInserted: [Int64]
    /// Per entity, the inserted records by `key - firstInserted` (`nil` once deleted by a cascade).
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var inserted: [[LMDBRecord?]]
    /// The to-ones each insert of an entity without to-many relationships sent, by its position
    /// in `writes` (empty for other inserts): the inserted record's own array, shared (a later
    /// change to the record copies it, so this stays what was sent). Kept beside the writes, not in
    /// them: a bigger `Write` cost every update (limit: Benchmarks/Thresholds/lmdb-update-batch.txt);
    /// one allocation, made only by a save that inserts.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var sentToOne: [[Int64?]] = []
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var temporaries: [[PersistentIdentifier]]
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var cache: [Key: Cached] = [:]
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var writes: [Write] = []
    /// Per entity, the position in `writes` of each insert, by `key - firstInserted`.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var insertWrites: [[Int]]
    /// Records whose relationships the store changed (for validation and the result).
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var touched = Set<Key>()
    /// Partial updates whose stored result differs from the client's snapshot: reported as changed.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var refreshed = Set<Key>()
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var deletedSet = Set<Key>()
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var deleted: [Key] = []
    /// Members of ordered lists appended to in this save, so an append checks membership in O(1).
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var membership: [Slot: Set<Int64>] = [:]
    /// When the save records history: each stored record's to-many list as it was before the
    /// save first changed it (`nil`: not recording, nothing kept).
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var oldLists: [Slot: [Int64]]?
    /// The record marked touched last: an insert's parent is usually touched by each of its children.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var lastTouched: Key?

    init(txn: OpaquePointer, context: LMDBContext) throws {
        self.txn = txn
        self.layout = context.layout
        self.records = LMDBRecords(txn: txn, context: context)
        self.storeIdentifier = context.storeIdentifier
        self.entities = layout.schema.entities
        self.hasToMany = context.hasToMany
        let meta = LMDBMeta(txn: txn, layout: layout, file: context.file)
        self.firstInserted = try entities.map { try meta.nextKey($0) }
        self.inserted = entities.map { _ in [] }
        self.temporaries = entities.map { _ in [] }
        self.insertWrites = entities.map { _ in [] }
    }

    // MARK: Records

    @inline(__always)
    func isInserted(_ entity: Int, _ key: Int64) -> Bool {
        let first = firstInserted[entity]
        return key >= first && key - first < Int64(inserted[entity].count)
    }

    /// What write `w` sent for relationship `r`.
    @inline(__always)
    func sentLink(_ w: Write, _ r: Int) -> Link {
        guard w.sent.isEmpty else { return w.sent[r] }
        let e = w.entity.index
        return .one(sentToOne[insertWrites[e][Int(w.key - firstInserted[e])]][r])
    }

    /// The identifier the client knows a record by: temporary for one this save inserts.
    func client(_ entity: Int, _ key: Int64) -> PersistentIdentifier {
        if isInserted(entity, key) { return temporaries[entity][Int(key - firstInserted[entity])] }
        return records.id(entities[entity].name, key)
    }

    /// The record as it stands in this save, or `nil`.
    func load(_ entity: Int, _ key: Int64) throws -> LMDBRecord? {
        if isInserted(entity, key) { return inserted[entity][Int(key - firstInserted[entity])] }
        let k = Key(entity: entity, key: key)
        if let cached = cache[k] { return cached.current }
        let record = try records.record(entities[entity], key)
        cache[k] = Cached(original: record, current: record, dirty: false)
        return record
    }

    /// Changes a record that exists in this save.
    func modify(_ entity: Int, _ key: Int64, _ body: (inout LMDBRecord) -> Void) throws {
        if isInserted(entity, key) {
            let i = Int(key - firstInserted[entity])
            guard inserted[entity][i] != nil else { return }
            body(&inserted[entity][i]!)
            return
        }
        guard try load(entity, key) != nil else { return }
        let k = Key(entity: entity, key: key)
        body(&cache[k]!.current!)
        cache[k]!.dirty = true
    }

    func exists(_ entity: Int, _ key: Int64) throws -> Bool {
        if isInserted(entity, key) { return inserted[entity][Int(key - firstInserted[entity])] != nil }
        if let cached = cache[Key(entity: entity, key: key)] { return cached.current != nil }
        return try records.exists(entities[entity], key)
    }

    // MARK: Run

    func run<S: DataStoreSnapshot>(_ request: SaveRequest<S>) throws {
        try assignKeys(request.inserted, firstKeys: request.firstKeys)
        try resolveWrites(request)
        for n in writes.indices where writes[n].isInsert {
            for (r, link) in writes[n].sent.enumerated() {
                guard case .many(let targets) = link, !targets.isEmpty else { continue }
                try writeList(writes[n].entity.index, writes[n].key, r, targets)
            }
        }
        for w in writes {
            for r in w.entity.relationships.indices { try applyLink(w, r) }
        }
        try applyDeletes(request.deleted)
        try validate()
        try flush()
    }

    private func assignKeys<S: DataStoreSnapshot>(_ snapshots: [S], firstKeys: [String: Int64]) throws {
        remap.reserveCapacity(snapshots.count)
        var next = firstInserted
        try snapshots.withUnsafeBufferPointer { snapshots in
            for n in snapshots.indices {
                let id = snapshots[n].persistentIdentifier
                let entity = try SaveValidation.entity(of: id, given: snapshots[n].entity, in: entities)
                if !firstKeys.isEmpty, temporaries[entity.index].isEmpty, let chosen = firstKeys[entity.name] {
                    // The entity's first insert takes the key the request chooses (`SaveRequest.firstKeys`):
                    // every key from `firstInserted` on is still this save's, the keys skipped nobody's.
                    firstInserted[entity.index] = try SaveValidation.firstKey(of: entity, next: firstInserted[entity.index], chosen: chosen)
                    next[entity.index] = firstInserted[entity.index]
                }
                let key = next[entity.index]
                try SaveValidation.assignKey(n, of: snapshots, entity: entity, next: key, remapping: &remap) { records.id(entity.name, $0) }
                next[entity.index] = key + 1
                temporaries[entity.index].append(id)
            }
        }
    }

    /// The last reference resolved: children saved together usually point at the same parent.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var lastReference: (id: PersistentIdentifier, destination: Int, key: Int64)?

    /// Resolves reference `target` of relationship `r` of `source`; a new permanent reference must
    /// name a record stored before the save, checked with the snapshot (the contract's fault
    /// order). One the record already held (`stored`) stays, even dangling (noAction).
    ///
    /// A method called from a closure literal, not a returned closure: that one was a heap
    /// context allocated and freed per saved record (limit: Benchmarks/Thresholds/lmdb-insert.txt).
    private func resolve(_ target: PersistentIdentifier, _ r: Int, of entity: EntitySchema, source: PersistentIdentifier, stored: [Link]?) throws -> Int64 {
        let destination = entities[entity.destinationIndices[r]]
        if let last = lastReference, last.destination == destination.index, last.id == target { return last.key }
        let key = try SaveValidation.referenceKey(target, to: destination, from: entity, relationship: r, storeIdentifier: storeIdentifier, remapping: remap)
        var held = false
        try SaveValidation.checkNewReference(target, from: entity, relationship: r, source: source) {
            held = stored?[r].keys.contains(key) == true
            return try held || (!isInserted(destination.index, key) && records.exists(destination, key))
        }
        if held { return key }
        lastReference = (target, destination.index, key)
        return key
    }

    private func links(_ snapshot: some DataStoreSnapshot, _ entity: EntitySchema, stored: [Link]? = nil) throws -> [Link] {
        let source = snapshot.persistentIdentifier
        return try SaveValidation.links(snapshot.relationshipValues, of: entity, identifier: source) { target, r in
            try resolve(target, r, of: entity, source: source, stored: stored)
        }
    }

    /// The to-one targets of `links` (`nil` for a to-many), in one allocation of the final size.
    private func toOnes(_ links: [Link]) -> [Int64?] {
        @inline(__always)
        func target(_ link: Link) -> Int64? { if case .one(let k) = link { k } else { nil } }
        if links.count == 1 { return [target(links[0])] }
        return [Int64?](unsafeUninitializedCapacity: links.count) { buffer, initialized in
            for i in links.indices { (buffer.baseAddress! + i).initialize(to: target(links[i])) }
            initialized = links.count
        }
    }

    /// The to-one targets of an entity without to-many relationships, resolved and checked as
    /// `links` does (`SaveValidation.link` per relationship), in one allocation of the final size.
    private func toOnes(_ snapshot: some DataStoreSnapshot, _ entity: EntitySchema) throws -> [Int64?] {
        let source = snapshot.persistentIdentifier
        let values = snapshot.relationshipValues
        @inline(__always)
        func target(_ r: Int) throws -> Int64? {
            let link = try SaveValidation.link(values[r], of: entity, relationship: r, identifier: source) { target, r in
                try resolve(target, r, of: entity, source: source, stored: nil)
            }
            if case .one(let k) = link { return k }
            return nil
        }
        let count = entity.relationships.count
        if count == 0 { return [] }
        if count == 1 { return [try target(0)] }
        return try [Int64?](unsafeUninitializedCapacity: count) { buffer, initialized in
            for r in 0..<count {
                (buffer.baseAddress! + r).initialize(to: try target(r))
                initialized = r + 1
            }
        }
    }

    private func resolveWrites<S: DataStoreSnapshot>(_ request: SaveRequest<S>) throws {
        writes.reserveCapacity(request.inserted.count + request.updated.count)
        sentToOne.reserveCapacity(request.inserted.count)
        for (n, snapshot) in request.inserted.enumerated() {
            let entity = try SaveValidation.entity(of: snapshot.persistentIdentifier, given: snapshot.entity, in: entities)
            let attributes = snapshot.attributeValues
            try SaveValidation.checkValues(attributes, snapshot.relationshipValues, of: entity, identifier: snapshot.persistentIdentifier)
            let key = remap.permanentIdentifiers[n].primaryKey
            insertWrites[entity.index].append(writes.count)
            if hasToMany[entity.index] {
                let sent = try links(snapshot, entity)
                inserted[entity.index].append(LMDBRecord(attributes: attributes, toOne: toOnes(sent)))
                writes.append(Write(entity: entity, key: key, isInsert: true, sent: sent, stored: []))
                sentToOne.append([])
            } else {
                // No to-many: the to-ones go straight into the record's array, which the write
                // shares instead of keeping a `[Link]` of its own (one heap block fewer per record;
                // limit: Benchmarks/Thresholds/lmdb-insert.txt).
                let toOne = try toOnes(snapshot, entity)
                inserted[entity.index].append(LMDBRecord(attributes: attributes, toOne: toOne))
                sentToOne.append(toOne)
                writes.append(Write(entity: entity, key: key, isInsert: true, sent: [], stored: []))
            }
        }
        var seen = Set<Key>()
        let alone = request.updated.count == 1
        for snapshot in request.updated {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: entities)
            let key = try SaveValidation.updatedKey(id, of: entity, storeIdentifier: storeIdentifier, seen: &seen, alone: alone) { k in
                try !isInserted(entity.index, k) && load(entity.index, k) != nil
            }
            try SaveValidation.checkValues(snapshot.attributeValues, snapshot.relationshipValues, of: entity, identifier: id)
            let record = try load(entity.index, key)!
            let stored: [Link] = try entity.relationships.indices.map { r in
                entity.relationshipIsToMany[r] ? .many(try records.targets(entity, key, r)) : .one(record.toOne[r])
            }
            var sent = try links(snapshot, entity, stored: stored)
            var attributes = snapshot.attributeValues
            if let scope = request.updatedProperties[id] {
                // A partial update writes the listed properties over the record as stored now.
                let merged = try scope.merged(attributes: attributes, links: sent, storedAttributes: record.attributes, storedLinks: stored, entity: entity, identifier: id) { value, r in
                    try SaveValidation.link(value, of: entity, relationship: r, identifier: id) { target, r in try resolve(target, r, of: entity, source: id, stored: stored) }
                }
                if merged.attributes != attributes || merged.links != sent { refreshed.insert(Key(entity: entity.index, key: key)) }
                (attributes, sent) = merged
            }
            writes.append(Write(entity: entity, key: key, isInsert: false, sent: sent, stored: stored, attributes: attributes))
        }
        for w in writes where !w.isInsert {
            try modify(w.entity.index, w.key) { $0.attributes = w.attributes }
        }
    }
}
