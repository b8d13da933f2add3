/// Applies one `SaveRequest` to a copy of the committed state, or throws leaving no trace.
///
/// The order is the contract's: assign permanent identifiers to every insert first (so inserts can
/// reference each other), write inserts and updates and maintain inverses, apply deletes with their
/// delete rules against the whole state, then validate required relationships, counts and unique
/// constraints over everything that changed. Relationship writes are applied in request order
/// (inserts, then updates, each relationship in declaration order); when two writes disagree about
/// one edge, the later one wins and both sides still agree.
struct SaveTransaction {
    /// The state before the save; only its key counters change, when the request chooses first keys.
    private(set) var base: StoreState
    var work: StoreState
    let schema: Schema
    /// The schema's entities, held once so hot loops do not copy the schema.
    let entities: [EntitySchema]
    /// Per entity, the constraints made of attributes only: their keys are final when an insert is
    /// written, so the insert enters the index then, while the values are at hand.
    private let attributeOnlyConstraints: [[Int]]
    /// Per entity and constraint, inserts whose value another record held when they were written:
    /// they enter the index at the end, after updates and deletes released their old values.
    private var pendingUniqueKeys: [[[(key: Int64, new: UniqueKey)]]]
    /// Temporary → permanent identifier of every insert, in request order (the key of insert `n` is
    /// `remap.permanentIdentifiers[n].primaryKey`).
    private var remap = IdentifierRemapping()
    var changes: ChangeSet
    var deleted: [Set<Int64>]
    private var written: [Written] = []
    /// Membership sets of large to-many lists that this save appends to, so appends stay O(1).
    var membership: [LinkSlot: Set<Int64>] = [:]
    /// Whether a to-many list the request wrote names a record this save inserts. Until one does, a
    /// record inserted by this save can be in a list only if its own write put it there, once, so
    /// attaching it needs no membership check (no scan of the list per insert).
    var requestListsHoldInserts = false
    /// Whether some write changed a to-one link of a record this save inserts. Until one does, every
    /// insert's to-one links are as its snapshot sent them.
    var insertedToOneMoved = false
    /// Per entity, by key minus `base`'s next key: whether a write of this save was about to change
    /// the links of the record it inserted there after writing it (only those can differ from
    /// what was sent), so `sentByChangedInserts` holds what it was written with.
    var insertLinksChanged: [[Bool]] = []
    /// The links those inserts were written with, kept before they first changed: what the result
    /// compares with to report an insert whose relationships came back different.
    var sentByChangedInserts: [(entity: Int, key: Int64, sent: [Link])] = []
    /// A run of appends to one to-many list not yet written into its record (`attach`).
    var pendingAppend: LinkSlot?
    var pendingKeys: [Int64] = []
    /// Per entity, the key after the last insert written so far (inserts are written in key order).
    private var insertsWrittenBefore: [Int64] = []
    /// Whether an insert's links waited for the end of the writes (a target not written yet); every
    /// later insert's links wait too, so links are still applied in request order.
    private var insertLinksWait = false

    struct LinkSlot: Hashable {
        let entity: Int
        let key: Int64
        let relationship: Int
    }

    struct Written {
        let entity: EntitySchema
        let key: Int64
        let sent: [Link]
        let isInsert: Bool
        /// A partial update whose stored result differs from the client's snapshot: report it.
        var refresh = false
    }

    init(base: StoreState) {
        self.base = base
        self.work = base
        self.schema = base.schema
        self.entities = base.schema.entities
        self.attributeOnlyConstraints = base.schema.entities.map { e in
            e.uniqueConstraints.indices.filter { c in e.uniqueConstraints[c].allSatisfy { if case .attribute = $0 { true } else { false } } }
        }
        self.pendingUniqueKeys = base.schema.entities.map { Array(repeating: [], count: $0.uniqueConstraints.count) }
        self.changes = ChangeSet(entityCount: base.schema.entities.count)
        self.deleted = Array(repeating: [], count: base.schema.entities.count)
    }

    /// Runs the request; on success returns the next state's difference and the client's result.
    mutating func run(_ request: IncomingRequest) throws -> TransactionOutcome {
        if !request.firstKeys.isEmpty { try chooseFirstKeys(request.inserted, request.firstKeys) }
        try assignIdentifiers(request.inserted)
        try writeRecords(request)
        for w in written {
            for r in w.entity.relationships.indices { try applyLink(w, r) }
        }
        flushPendingAppends()
        try applyDeletes(request.deleted)
        try validateRelationships()
        try maintainUniqueIndexes()
        return outcome()
    }

    // MARK: Identifiers

    private func entity(of snapshot: DefaultSnapshot) throws -> EntitySchema {
        try SaveValidation.entity(of: snapshot.persistentIdentifier, given: snapshot.entity, in: entities)
    }

    private mutating func assignIdentifiers(_ inserted: [DefaultSnapshot]) throws {
        remap.reserveCapacity(inserted.count)
        try inserted.withUnsafeBufferPointer { inserted in try assign(inserted) }
        insertLinksChanged = entities.indices.map { e in
            [Bool](repeating: false, count: Int(work.tables[e].nextPrimaryKey - base.tables[e].nextPrimaryKey))
        }
        for e in entities.indices where !insertLinksChanged[e].isEmpty {
            for c in attributeOnlyConstraints[e] { work.tables[e].uniqueIndexes[c].reserveCapacity(forAdding: insertLinksChanged[e].count) }
            work.tables[e].records.prepareDensePages(for: base.tables[e].nextPrimaryKey..<work.tables[e].nextPrimaryKey)
        }
    }

    /// Moves the key counter of each entity the request inserts and chooses a first key for
    /// (`SaveRequest.firstKeys`) to that key, in `base` too: the keys skipped are neither stored
    /// nor inserted, and every key from `base`'s counter on is this save's insert, as without a choice.
    private mutating func chooseFirstKeys(_ inserted: [DefaultSnapshot], _ firstKeys: [String: Int64]) throws {
        var seen = Set<Int>()
        for snapshot in inserted {
            let entity = try SaveValidation.entity(of: snapshot.persistentIdentifier, given: snapshot.entity, in: entities)
            guard seen.insert(entity.index).inserted, let chosen = firstKeys[entity.name] else { continue }
            let key = try SaveValidation.firstKey(of: entity, next: base.tables[entity.index].nextPrimaryKey, chosen: chosen)
            base.tables[entity.index].nextPrimaryKey = key
            work.tables[entity.index].nextPrimaryKey = key
        }
    }

    private mutating func assign(_ inserted: UnsafeBufferPointer<DefaultSnapshot>) throws {
        // The identifier is read in place, not held in a local: the remapping's copy is the only one.
        // The checks and their order are `SaveValidation.assignKey`'s (the identifier borrowed in place).
        let store = work.storeIdentifier
        for n in inserted.indices {
            let entity = try insertedEntity(inserted, n)
            let key = work.tables[entity.index].nextPrimaryKey
            try SaveValidation.assignKey(n, of: inserted, entity: entity, next: key, remapping: &remap) {
                PersistentIdentifier(storeIdentifier: store, entityName: entity.name, primaryKey: $0)
            }
            work.tables[entity.index].nextPrimaryKey = key + 1
        }
    }

    /// The entity of insert `n`: the snapshot's own when it is this schema's and its identifier
    /// agrees. Read in place: passing the identifier to a function copied its two strings per call.
    @inline(__always)
    private func insertedEntity(_ inserted: UnsafeBufferPointer<DefaultSnapshot>, _ n: Int) throws -> EntitySchema {
        let given = inserted[n].entity
        if given.index < entities.count, entities[given.index] === given, inserted[n].persistentIdentifier.entityName == given.name { return given }
        return try SaveValidation.entity(of: inserted[n].persistentIdentifier, given: given, in: entities)
    }

    /// The identifier the client knows a record by: temporary for a record inserted in this save.
    /// Only faults ask, so a search of the remapping is fine (no per-insert bookkeeping for it).
    func clientIdentifier(_ entity: Int, _ key: Int64) -> PersistentIdentifier {
        let permanent = work.identifier(entities[entity], key)
        guard key >= base.tables[entity].nextPrimaryKey, let n = remap.permanentIdentifiers.firstIndex(of: permanent) else { return permanent }
        return remap.temporaryIdentifiers[n]
    }

    /// The last temporary identifier resolved, in parts, and its key: children inserted together
    /// usually point at the same parent, so most lookups skip the remapping. Held as parts and
    /// compared in place: holding and comparing a whole identifier copied its two strings.
    private var lastTemporaryKey: Int64 = 0
    private var lastTemporaryEntity = ""
    private var lastTemporaryStore = ""
    private var lastResolvedKey: Int64?

    private mutating func resolve(_ id: PersistentIdentifier, to destination: EntitySchema, from entity: EntitySchema, _ relationship: Int) throws -> Int64 {
        if id.isTemporary, let key = lastResolvedKey, id.primaryKey == lastTemporaryKey, id.entityName == lastTemporaryEntity,
            id.storeIdentifier == lastTemporaryStore, id.entityName == destination.name { return key }
        if id.isTemporary, let permanent = remap[id], permanent.entityName == destination.name {
            lastTemporaryKey = id.primaryKey
            lastTemporaryEntity = id.entityName
            lastTemporaryStore = id.storeIdentifier
            lastResolvedKey = permanent.primaryKey
            return permanent.primaryKey
        }
        if !id.isTemporary, id.storeIdentifier == base.storeIdentifier, id.entityName == destination.name { return id.primaryKey }
        return try SaveValidation.referenceKey(id, to: destination, from: entity, relationship: relationship, storeIdentifier: base.storeIdentifier, remapping: remap)
    }

    private func existingKey(_ id: PersistentIdentifier, _ entity: EntitySchema, verb: String) throws -> Int64 {
        try SaveValidation.existingKey(id, of: entity, verb: verb, storeIdentifier: base.storeIdentifier) { isStored(entity, $0) }
    }

    /// Whether record `key` of `entity` was stored before the save (and is still there).
    private func isStored(_ entity: EntitySchema, _ key: Int64) -> Bool {
        work.tables[entity.index].records[key] != nil && key < base.tables[entity.index].nextPrimaryKey
    }

    // MARK: Writing

    private mutating func convert(_ snapshot: DefaultSnapshot, _ entity: EntitySchema) throws -> (attributes: [Value], links: [Link]) {
        (snapshot.attributes, try convert(snapshot.attributes, snapshot.relationships, entity, snapshot.persistentIdentifier))
    }

    /// Checks a snapshot's values and turns its relationship values into links. `id` (the
    /// snapshot's identifier) is read only for an error or a reference to check.
    ///
    /// `mutating` (as are the helpers it calls) though it changes nothing but the resolve cache:
    /// a non-mutating call from the save's loops copied the whole transaction (336 bytes) onto
    /// the stack per record; a mutating one borrows it in place.
    private mutating func convert(_ attributes: [Value], _ relationships: [RelationshipValue], _ entity: EntitySchema, _ id: @autoclosure () -> PersistentIdentifier) throws -> [Link] {
        try SaveValidation.checkValues(attributes, relationships, of: entity, identifier: id())
        // One or two relationships (most entities) as array literals: `reserveCapacity` and
        // `Array(repeating:count:)` reached the array's storage type through a generic metadata
        // lookup on every record; a literal's type is cached at the call (limit:
        // Benchmarks/Thresholds/memory-insert.txt).
        switch relationships.count {
        case 0: return []
        case 1:
            let link = try convert(relationships[0], entity, 0, id())
            guard case .one = link else { return [link] }
            if sharedToOne.count == 1, sharedToOne[0] == link { return sharedToOne }
            sharedToOne = [link]
            return sharedToOne
        case 2: return [try convert(relationships[0], entity, 0, id()), try convert(relationships[1], entity, 1, id())]
        default:
            var links: [Link] = []
            links.reserveCapacity(relationships.count)
            for i in relationships.indices { links.append(try convert(relationships[i], entity, i, id())) }
            return links
        }
    }

    /// The links of the last record with a single to-one relationship: the next such record naming
    /// the same target (children of one parent, written together) shares the array instead of
    /// allocating its own. A value: the first change to one record's links copies it.
    private var sharedToOne: [Link] = []

    private mutating func convert(_ value: RelationshipValue, _ entity: EntitySchema, _ i: Int, _ id: @autoclosure () -> PersistentIdentifier) throws -> Link {
        let destination = entities[entity.destinationIndices[i]]
        // One `if case` per shape, not a switch over a (value, shape) tuple: the tuple copied the
        // whole value (its identifiers' strings) in and destroyed it again per relationship.
        if entity.relationshipIsToMany[i] {
            guard case .toMany(let ids) = value else { throw SaveValidation.shapeMismatch(entity, i, identifier: id()) }
            return .many(deduplicated(try ids.map { try existing(try resolve($0, to: destination, from: entity, i), $0, destination, from: entity, i, id()) }))
        }
        guard case .toOne(let target) = value else { throw SaveValidation.shapeMismatch(entity, i, identifier: id()) }
        guard let target else { return .one(nil) }
        return .one(try existing(try resolve(target, to: destination, from: entity, i), target, destination, from: entity, i, id()))
    }

    /// A permanent reference must name a record the store held before the save; checked with the
    /// rest of the snapshot, so the fault a save reports does not depend on when links are applied.
    /// A reference the record already held is kept even if it dangles (noAction), so only new ones
    /// must exist.
    private mutating func existing(_ key: Int64, _ id: PersistentIdentifier, _ destination: EntitySchema, from entity: EntitySchema, _ r: Int, _ source: @autoclosure () -> PersistentIdentifier) throws -> Int64 {
        try SaveValidation.checkNewReference(id, from: entity, relationship: r, source: source()) {
            if base.tables[destination.index].records[key] != nil { return true }
            let source = source()
            return !source.isTemporary && base.tables[entity.index].records[source.primaryKey]?.links[r].keys.contains(key) == true
        }
        return key
    }

    private mutating func writeRecords(_ request: IncomingRequest) throws {
        written.reserveCapacity(request.updated.count)
        insertsWrittenBefore = base.tables.map(\.nextPrimaryKey)
        try request.inserted.withUnsafeBufferPointer { try writeInserts($0) }
        try writeUpdates(request)
    }

    private mutating func writeInserts(_ inserted: UnsafeBufferPointer<DefaultSnapshot>) throws {
        for n in inserted.indices {
            // The snapshot's fields one by one: passing `inserted[n]` whole copied it (four
            // references retained and released) twice per insert.
            let entity = try insertedEntity(inserted, n)
            let key = remap.permanentIdentifiers[n].primaryKey
            let attributes = inserted[n].attributes
            let links = try convert(attributes, inserted[n].relationships, entity, inserted[n].persistentIdentifier)
            if !requestListsHoldInserts { noteInsertsListed(links, entity) }
            for c in attributeOnlyConstraints[entity.index] {
                guard let u = StoreState.uniqueKey(entity, c, attributes: attributes, links: []) else { continue }
                if let holder = work.tables[entity.index].uniqueIndexes[c].updateValue(key, forKey: u) {
                    // Taken (perhaps by a record this save changes or deletes): give it back, decide at the end.
                    work.tables[entity.index].uniqueIndexes[c][u] = holder
                    pendingUniqueKeys[entity.index][c].append((key, u))
                }
            }
            work.tables[entity.index].records[key] = StoredRecord(attributes: attributes, links: links)
            changes.inserted[entity.index].append(key)
            insertsWrittenBefore[entity.index] = key + 1
            if !insertLinksWait, links.indices.allSatisfy({ r in Self.isWritten(links[r], before: insertsWrittenBefore[entity.destinationIndices[r]]) }) {
                // Every target is written: apply the links now (no entry to come back to).
                for r in links.indices { applyInsertLink(entity, key, links[r], r) }
            } else {
                insertLinksWait = true
                written.append(Written(entity: entity, key: key, sent: links, isInsert: true))
            }
        }
    }

    /// Whether every record `link` names is in the state already: stored before the save, or
    /// inserted by it and written (inserts are written in request order, each entity's in key
    /// order, so the written ones are the keys before `before`).
    private static func isWritten(_ link: Link, before: Int64) -> Bool {
        switch link {
        case .one(let k): k.map { $0 < before } ?? true
        case .many(let ks): !ks.contains { $0 >= before }
        }
    }

    private mutating func writeUpdates(_ request: IncomingRequest) throws {
        var seen = Set<RecordKey>()
        let alone = request.updated.count == 1
        for snapshot in request.updated {
            let entity = try entity(of: snapshot)
            let key = try SaveValidation.updatedKey(snapshot.persistentIdentifier, of: entity, storeIdentifier: base.storeIdentifier, seen: &seen, alone: alone) { isStored(entity, $0) }
            var (attributes, links) = try convert(snapshot, entity)
            if !requestListsHoldInserts { noteInsertsListed(links, entity) }
            var refresh = false
            if let scope = request.updatedProperties[snapshot.persistentIdentifier] {
                // A partial update writes the listed properties over the record as stored now.
                let stored = base.tables[entity.index].records[key]!
                let sentLinks = links
                (attributes, links) = try scope.merged(
                    attributes: attributes, links: links, storedAttributes: stored.attributes, storedLinks: stored.links,
                    entity: entity, identifier: snapshot.persistentIdentifier
                ) { value, r in try convert(value, entity, r, snapshot.persistentIdentifier) }
                refresh = attributes != snapshot.attributes || links != sentLinks
            }
            work.tables[entity.index].records.modify(key) { $0.attributes = attributes }
            markTouched(entity.index, key)
            written.append(Written(entity: entity, key: key, sent: links, isInsert: false, refresh: refresh))
        }
    }

    /// Sets `requestListsHoldInserts` if one of a written record's to-many links names an insert.
    private mutating func noteInsertsListed(_ links: [Link], _ entity: EntitySchema) {
        for (r, link) in links.enumerated() {
            guard case .many(let keys) = link, !keys.isEmpty else { continue }
            let first = base.tables[entity.destinationIndices[r]].nextPrimaryKey
            if keys.contains(where: { $0 >= first }) { requestListsHoldInserts = true }
        }
    }

    // MARK: Deletes

    private mutating func applyDeletes(_ requested: [DefaultSnapshot]) throws {
        guard !requested.isEmpty else { return }
        var victims: [SaveRuleRecord] = []
        victims.reserveCapacity(requested.count)
        for snapshot in requested {
            let entity = try entity(of: snapshot)
            victims.append(SaveRuleRecord(entity: entity.index, key: try existingKey(snapshot.persistentIdentifier, entity, verb: "delete")))
        }
        let queue = try SaveRules.applyDeleteRules(victims, entities, host: &self)
        for victim in queue { deleted[victim.entity].insert(victim.key) }
        for victim in queue {
            if victim.key >= base.tables[victim.entity].nextPrimaryKey { unindexInsert(victim) }
            work.tables[victim.entity].records[victim.key] = nil
        }
    }

    /// Takes a record this save inserted (and now deletes) out of the unique indexes it entered when written.
    private mutating func unindexInsert(_ victim: SaveRuleRecord) {
        let entity = entities[victim.entity]
        guard !attributeOnlyConstraints[victim.entity].isEmpty, let record = work.tables[victim.entity].records[victim.key] else { return }
        for c in attributeOnlyConstraints[victim.entity] {
            if let u = work.uniqueKey(entity, c, record), work.tables[victim.entity].uniqueIndexes[c][u] == victim.key {
                work.tables[victim.entity].uniqueIndexes[c][u] = nil
            }
        }
    }

    // MARK: Validation

    private mutating func validateRelationships() throws {
        var candidates: [SaveRuleRecord] = []
        for entity in entities where entity.relationships.indices.contains(where: { SaveRules.needsCountCheck(entity, $0) }) {
            for key in changes.updated[entity.index] { candidates.append(SaveRuleRecord(entity: entity.index, key: key)) }
            for key in changes.inserted[entity.index] { candidates.append(SaveRuleRecord(entity: entity.index, key: key)) }
        }
        try SaveRules.checkRelationships(candidates, entities, host: &self)
    }

    private mutating func maintainUniqueIndexes() throws {
        for entity in schema.entities where !entity.uniqueConstraints.isEmpty {
            let e = entity.index
            let inserted = changes.inserted[e]
            var existing = Array(changes.updated[e])
            existing.append(contentsOf: deleted[e].filter { $0 < base.tables[e].nextPrimaryKey && !changes.updated[e].contains($0) })
            for c in entity.uniqueConstraints.indices {
                var moves: [(key: Int64, new: UniqueKey)]
                // Attribute-only constraints: the inserts entered the index when written, except
                // the pending ones; a violation is chosen from every insert all the same.
                let indexedWhenWritten = attributeOnlyConstraints[e].contains(c)
                if indexedWhenWritten {
                    moves = pendingUniqueKeys[e][c]
                    pendingUniqueKeys[e][c] = []
                    if !deleted[e].isEmpty { moves.removeAll { deleted[e].contains($0.key) } }
                } else {
                    work.tables[e].uniqueIndexes[c].reserveCapacity(forAdding: inserted.count)
                    moves = insertedMoves(entity, c)
                }
                let firstExisting = moves.count
                for key in existing {
                    let old = base.tables[e].records[key].flatMap { base.uniqueKey(entity, c, $0) }
                    let new = work.tables[e].records[key].flatMap { work.uniqueKey(entity, c, $0) }
                    guard old != new else { continue }
                    if let old, work.tables[e].uniqueIndexes[c][old] == key { work.tables[e].uniqueIndexes[c][old] = nil }
                    if let new { moves.append((key, new)) }
                }
                for (key, new) in moves {
                    if let holder = work.tables[e].uniqueIndexes[c].updateValue(key, forKey: new), holder != key {
                        throw uniqueViolation(entity, c, moved: indexedWhenWritten ? insertedMoves(entity, c) + moves[firstExisting...] : moves)
                    }
                }
            }
        }
    }

    /// The unique keys for constraint `c` of the records this save inserted into `entity` and did
    /// not delete again, in request order.
    private func insertedMoves(_ entity: EntitySchema, _ c: Int) -> [(key: Int64, new: UniqueKey)] {
        var moves: [(key: Int64, new: UniqueKey)] = []
        moves.reserveCapacity(changes.inserted[entity.index].count)
        for key in changes.inserted[entity.index] {
            if let record = work.tables[entity.index].records[key], let new = work.uniqueKey(entity, c, record) { moves.append((key, new)) }
        }
        return moves
    }

    // MARK: Result

    private func finalChanges() -> ChangeSet {
        var result = changes
        for e in schema.entities.indices where !deleted[e].isEmpty {
            result.inserted[e].removeAll { deleted[e].contains($0) }
            result.updated[e].subtract(deleted[e])
            result.deleted[e] = deleted[e].filter { $0 < base.tables[e].nextPrimaryKey }
        }
        return result
    }

    private func outcome() -> TransactionOutcome {
        var changed: [(EntitySchema, Int64, StoredRecord)] = []
        var writtenExisting = Set<RecordKey>()
        for w in written where !w.isInsert {
            writtenExisting.insert(RecordKey(entity: w.entity.index, key: w.key))
            if let record = work.tables[w.entity.index].records[w.key], differs(w.entity, record.links, w.sent) || w.refresh {
                changed.append((w.entity, w.key, record))
            }
        }
        // An insert whose links a later write changed: compare with what it sent (kept when its
        // links first changed). The others kept their links as sent.
        for (e, key, sent) in sentByChangedInserts {
            if let record = work.tables[e].records[key], differs(entities[e], record.links, sent) { changed.append((entities[e], key, record)) }
        }
        for entity in schema.entities {
            for key in changes.updated[entity.index] where !writtenExisting.contains(RecordKey(entity: entity.index, key: key)) {
                if let record = work.tables[entity.index].records[key] { changed.append((entity, key, record)) }
            }
        }
        var deletedIdentifiers = Set<PersistentIdentifier>()
        for entity in schema.entities {
            for key in deleted[entity.index] { deletedIdentifiers.insert(work.identifier(entity, key)) }
        }
        return TransactionOutcome(changes: finalChanges(), remap: remap, deleted: deletedIdentifiers, changed: changed)
    }
}

/// A save request as `DefaultSnapshot`s, so the transaction is not generic: a request of
/// `DefaultSnapshot`s passes through untouched, any other snapshot type is read out once.
struct IncomingRequest {
    var inserted: [DefaultSnapshot]
    var updated: [DefaultSnapshot]
    var deleted: [DefaultSnapshot]
    var updatedProperties: [PersistentIdentifier: UpdatedProperties]
    var firstKeys: [String: Int64]

    init<S: DataStoreSnapshot>(_ request: SaveRequest<S>) {
        updatedProperties = request.updatedProperties
        firstKeys = request.firstKeys
        if S.self == DefaultSnapshot.self {
            inserted = _identicalCast(request.inserted, to: [DefaultSnapshot].self)
            updated = _identicalCast(request.updated, to: [DefaultSnapshot].self)
            deleted = _identicalCast(request.deleted, to: [DefaultSnapshot].self)
        } else {
            func read(_ s: S) -> DefaultSnapshot {
                DefaultSnapshot(entity: s.entity, persistentIdentifier: s.persistentIdentifier, attributes: s.attributeValues, relationships: s.relationshipValues)
            }
            inserted = request.inserted.map(read)
            updated = request.updated.map(read)
            deleted = request.deleted.map { DefaultSnapshot(entity: $0.entity, persistentIdentifier: $0.persistentIdentifier, attributes: [], relationships: []) }
        }
    }
}

/// What a successful transaction produced, before snapshots are made of the backend's type.
struct TransactionOutcome {
    let changes: ChangeSet
    let remap: IdentifierRemapping
    let deleted: Set<PersistentIdentifier>
    let changed: [(EntitySchema, Int64, StoredRecord)]
}

/// The keys in order, each once.
func deduplicated(_ keys: [Int64]) -> [Int64] {
    guard keys.count > 1 else { return keys }
    var seen = Set<Int64>(minimumCapacity: keys.count)
    return keys.filter { seen.insert($0).inserted }
}
