import Foundation
@_spi(StrataEngine) import Strata

/// Applies one save inside the write transaction (`SQLConnection.beginWrite` … `commit`), with the
/// contract's semantics, for every SQL backend: the backend gives its connection, its dialect and
/// its row reading (`SQLRecordReader`); the rules are the core's (`SaveRules`, `SaveValidation`).
///
/// The order is the shared engine's: permanent keys for every insert first; inserts and updates;
/// relationship changes, each compared with the record as stored before the save and applied as edge
/// additions and removals in request order; deletes with their rules over everything stored; then
/// deferred unique values and validation. A UNIQUE failure in the middle of a save is not final —
/// two records may swap values, a deleted record frees its value — so the row is written without
/// its unique values, which are set again at the end; only a failure then is a violation.
///
/// Generic over the backend's reader, never `any`: every method is `@inlinable`, so the backend's
/// module specialises the whole save on its connection, statement and dialect (docs/architecture.md,
/// "The save transaction"; limits: Benchmarks/Thresholds/sqlite-*.txt).
@usableFromInline package final class SQLSaveTransaction<Records: SQLRecordReader> {
    @usableFromInline package typealias Key = RecordKey
    @usableFromInline package typealias Connection = Records.Connection
    @usableFromInline package typealias Dialect = Records.Dialect
    @usableFromInline package typealias Write = SQLSaveWrite
    @usableFromInline package typealias State = SQLSaveState
    @usableFromInline package typealias Start = SQLSaveStart
    @usableFromInline package typealias ListKey = SQLListKey

    /// The writer connection (`records.connection`).
    @usableFromInline package let db: Connection
    @usableFromInline package let mapping: SQLMapping
    /// The backend's reading of rows on the writer, and of the last committed state.
    @usableFromInline package let records: Records
    @usableFromInline package let storeIdentifier: String
    @inlinable package var schema: Schema { mapping.schema }
    /// The schema's entities, read through the mapping without copying the whole `Schema` (a
    /// copy retains each of its stored references: measured at about 130 instructions, three
    /// times per inserted record when every use went through `schema`).
    @inlinable package var entities: [EntitySchema] { mapping.schema.entities }
    /// An identifier as the dialect quotes it.
    @inlinable package func q(_ name: String) -> String { Dialect.quote(name) }
    /// The `index`-th parameter's placeholder, counted from 1.
    @inlinable package func p(_ index: Int) -> String { Dialect.placeholder(index) }

    /// The first row of `sql` in the last committed state (`SQLRecordReader.committedRow`).
    @inlinable
    package func committed(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLValue]? {
        try records.committedRow(sql, parameters)
    }

    /// The save's INSERT and UPDATE statements by row shape, kept across saves (the transaction is
    /// the store's, reused) so a one-record save neither rebuilds nor hashes their SQL text.
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md)
    @exclusivity(unchecked)
    #endif
    @usableFromInline package var rowStatements: [SQLRowShape: Connection.Statement] = [:]
    /// The row statement used last, found by comparing shapes instead of hashing them.
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md)
    @exclusivity(unchecked)
    #endif
    @usableFromInline package var lastRowStatement: (shape: SQLRowShape, statement: Connection.Statement)?
    /// The INSERTs queued on a connection that queues them (`SQLConnection.queuesInserts`), in
    /// queue order, with what holding a refused row's unique values back needs
    /// (`sendQueuedInserts`). Empty between saves.
    @usableFromInline package var queuedInserts: [(write: Write, values: [SQLValue], direct: [Int], statement: Connection.Statement)] = []

    // The transaction's state is touched only by the save that owns it, on the writer's thread
    // (the writer lock is held), and never through overlapping accesses: `@exclusivity(unchecked)`
    // drops the run-time exclusivity check on each access of this class property, tens of
    // accesses per inserted record (limits: Benchmarks/Thresholds/sqlite-insert.txt).
    /// Everything one save changes, in one value (`SQLSaveTransaction+State.swift`): `reset()`
    /// assigns a fresh one.
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md)
    @exclusivity(unchecked)
    #endif
    @usableFromInline package var state: State

    @inlinable package func insertedWrite(_ entity: Int, _ ordinal: Int) -> Write? {
        let positions = insertPositions[entity]
        guard ordinal < positions.count else { return nil }
        return writes[positions[ordinal]]
    }

    @inlinable package func isInserted(_ k: Key) -> Bool {
        guard let first = firstInserted[k.entity] else { return false }
        return k.key >= first && k.key - first < Int64(temporaries[k.entity].count)
    }

    /// Relationship `r` of `w` as stored before the save (empty for an insert).
    @inlinable package func stored(_ w: Write, _ r: Int) -> ArraySlice<Int64> {
        guard let base = w.stored else { return [] }
        return storedTargets.targets(base, r)
    }

    /// The reader's `schemaStamp()` when a save last found the store at this transaction's
    /// schema (SQLSaveTransaction+Schema.swift); nil before the first save.
    @usableFromInline package var checkedSchemaStamp: Int64?

    /// The per-entity starting state, shared by every save of the store.
    @usableFromInline package let start: Start

    /// The transaction of the store `records` reads, starting every save from `start`.
    @inlinable
    package init(records: Records, start: Start) {
        self.db = records.connection
        self.mapping = records.mapping
        self.records = records
        self.storeIdentifier = records.storeIdentifier
        self.start = start
        self.state = State(start)
    }

    @inlinable package func table(_ e: EntitySchema) -> String { q(mapping.tables[e.index].name) }

    @inlinable package func client(_ k: Key) -> PersistentIdentifier {
        if isInserted(k), let first = firstInserted[k.entity] { return temporaries[k.entity][Int(k.key - first)] }
        return records.id(entities[k.entity].name, k.key)
    }

    // MARK: Run

    @inlinable package func run<S: DataStoreSnapshot>(_ request: SaveRequest<S>) throws {
        queuedInserts.removeAll()
        try requireOpenedSchema()
        try assignKeys(request.inserted, firstKeys: request.firstKeys)
        try resolveWrites(request)
        for n in writes.indices where !writes[n].isInsert { _ = try writeAttributes(writes[n]) }
        for n in writes.indices where writes[n].isInsert {
            currentWriter = Key(entity: writes[n].entity.index, key: writes[n].key)
            // Relationships written by the INSERT itself need no further work.
            writes[n].directWritten = try writeAttributes(writes[n])
        }
        try sendQueuedInserts()
        for n in writes.indices {
            currentWriter = Key(entity: writes[n].entity.index, key: writes[n].key)
            if writes[n].isInsert {
                // A to-one the INSERT wrote may have been moved by an earlier write of the save;
                // this later write wins (request order).
                for r in directToOnes(writes[n].entity) {
                    // Until the save sets a to-one column (`setColumn`), each inserted row still holds
                    // what its INSERT wrote: no need to read it back (one SELECT per insert).
                    if columnWrites == 0, writes[n].directWritten.contains(r) { continue }
                    guard case .one(let target?) = writes[n].links[r], try column(writes[n].entity, writes[n].key, r) != target else { continue }
                    // Back in the list at the place the INSERT gave it: inserts that come later in
                    // the request and joined the same list follow it.
                    try attach(writes[n].entity, writes[n].key, r, target, at: listPlaces[currentWriter!]?[r])
                }
            }
            for r in writes[n].entity.relationships.indices { try applyLink(writes[n], r) }
        }
        currentWriter = nil
        try applyDeletes(request.deleted)
        // Relationship faults are reported before unique ones (the contract's order), so a row
        // whose held values still collide is validated with them first.
        let colliding = try restorePending()
        try validate()
        if !colliding.isEmpty { throw try uniqueFault(colliding) }
    }

    @inlinable package func assignKeys<S: DataStoreSnapshot>(_ inserted: [S], firstKeys: [String: Int64]) throws {
        guard !inserted.isEmpty else { return }
        remap.reserveCapacity(inserted.count)
        try inserted.withUnsafeBufferPointer { inserted in
            for n in inserted.indices {
                let id = inserted[n].persistentIdentifier
                let entity = try SaveValidation.entity(of: id, given: inserted[n].entity, in: entities)
                // The entity's first insert: the next free key, or the key the request chooses (`SaveRequest.firstKeys`).
                let next = try nextKeys[entity.index] ?? SaveValidation.firstKey(of: entity, next: firstFreeKey(entity), chosen: firstKeys.isEmpty ? nil : firstKeys[entity.name])
                try SaveValidation.assignKey(n, of: inserted, entity: entity, next: next, remapping: &remap) { records.id(entity.name, $0) }
                nextKeys[entity.index] = next + 1
                if firstInserted[entity.index] == nil { firstInserted[entity.index] = next }
                temporaries[entity.index].append(id)
            }
        }
    }

    /// The key after the largest one handed out for `entity` (`SQLDialect.lastKeyQuery`: keys are
    /// never reused). A sequence at `Int64.max` stays there, so the caller reports `keysExhausted`
    /// instead of overflowing; a negative one (a damaged file) restarts at 1.
    @inlinable package func firstFreeKey(_ entity: EntitySchema) throws -> Int64 {
        let last = Dialect.lastKeyQuery(table: mapping.tables[entity.index].name)
        let sequence = try db.prepare(last.sql).rows(last.parameters) { $0.int64(0) }.first ?? 0
        return sequence >= SaveValidation.keyLimit ? SaveValidation.keyLimit : max(sequence, 0) + 1
    }


    @inlinable package func reference(_ target: PersistentIdentifier, _ destination: EntitySchema, _ entity: EntitySchema, _ r: Int, source: PersistentIdentifier, stored: ArraySlice<Int64>?) throws -> Int64 {
        if let last = lastReference, last.destination == destination.index, last.id == target { return last.key }
        let key = try SaveValidation.referenceKey(target, to: destination, from: entity, relationship: r, storeIdentifier: storeIdentifier, remapping: remap)
        // A permanent reference must name a record stored before the save, checked with the rest
        // of the snapshot so the fault reported does not depend on when links are applied.
        if !target.isTemporary, !known.contains(Key(entity: destination.index, key: key)) {
            // A reference the record already held stays, even dangling (noAction): not known to exist.
            var exists = false
            try SaveValidation.checkNewReference(target, from: entity, relationship: r, source: source) {
                if stored?.contains(key) == true { return true }
                exists = try records.exists(destination, key)
                return exists
            }
            guard exists else { return key }
            known.insert(Key(entity: destination.index, key: key))
        }
        lastReference = (target, destination.index, key)
        return key
    }

    /// `stored` is the record's base in `storedTargets`, for an update.
    @inlinable package func links(_ relationships: [RelationshipValue], _ entity: EntitySchema, _ id: PersistentIdentifier, stored: Int? = nil) throws -> [SQLLink] {
        var links: [SQLLink] = []
        links.reserveCapacity(relationships.count)
        for (i, value) in relationships.enumerated() { links.append(try link(value, entity, i, id, stored: stored.map { storedTargets.targets($0, i) })) }
        return links
    }

    @inlinable package func link(_ value: RelationshipValue, _ entity: EntitySchema, _ i: Int, _ id: PersistentIdentifier, stored: ArraySlice<Int64>? = nil) throws -> SQLLink {
        let destination = entities[entity.destinationIndices[i]]
        switch (value, entity.relationshipIsToMany[i]) {
        case (.toOne(nil), false):
            return .one(nil)
        case (.toOne(let t?), false):
            return .one(try reference(t, destination, entity, i, source: id, stored: stored))
        case (.toMany(let ts), true):
            var keys: [Int64] = []
            keys.reserveCapacity(ts.count)
            for t in ts { keys.append(try reference(t, destination, entity, i, source: id, stored: stored)) }
            if keys.count > 1 {
                var seen = Set<Int64>()
                keys = keys.filter { seen.insert($0).inserted }
            }
            return .many(keys)
        default:
            throw SaveValidation.shapeMismatch(entity, i, identifier: id)
        }
    }

    @inlinable package func resolveWrites<S: DataStoreSnapshot>(_ request: SaveRequest<S>) throws {
        for n in request.inserted.indices {
            let id = request.inserted[n].persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: request.inserted[n].entity, in: entities)
            let attributes = request.inserted[n].attributeValues, relationships = request.inserted[n].relationshipValues
            try SaveValidation.checkValues(attributes, relationships, of: entity, identifier: id)
            let key = remap.permanentIdentifiers[n].primaryKey
            insertPositions[entity.index].append(writes.count)
            writes.append(Write(entity: entity, key: key, isInsert: true, attributes: attributes, links: try links(relationships, entity, id), stored: nil))
        }
        var seen = Set<Key>()
        let alone = request.updated.count == 1
        // A server backend reads the updated records' rows in one go, not one round trip each.
        if Records.prefetchesStoredRows, !alone, !request.updated.isEmpty {
            try records.prefetchStoredRows(request.updated.map(\.persistentIdentifier))
        }
        for snapshot in request.updated {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: entities)
            let stored = storedTargets.count
            var changed: [Int] = []
            let key = try SaveValidation.updatedKey(id, of: entity, storeIdentifier: storeIdentifier, seen: &seen, alone: alone) { k in
                guard let found = try records.storedRow(entity, k, against: snapshot.attributeValues, targets: &storedTargets) else { return false }
                changed = found
                return true
            }
            try SaveValidation.checkValues(snapshot.attributeValues, snapshot.relationshipValues, of: entity, identifier: id)
            var attributes = snapshot.attributeValues, sent = try links(snapshot.relationshipValues, entity, id, stored: stored)
            if let scope = request.updatedProperties[id] {
                try mergePartial(scope, entity, key, id, stored: stored, attributes: &attributes, links: &sent, changed: &changed)
            }
            writes.append(Write(entity: entity, key: key, isInsert: false, attributes: attributes, links: sent, stored: stored, changed: changed))
        }
    }

    /// A partial update (`scope`): the listed properties written over the row as stored now
    /// (`UpdatedProperties.merged`, the core's rule), and the columns to write those the merged
    /// values change. Not inlinable: the merge is the core's SPI, and partial updates are not the
    /// hot path (the model layer's saves send whole snapshots).
    @usableFromInline
    package func mergePartial(_ scope: UpdatedProperties, _ entity: EntitySchema, _ key: Int64, _ id: PersistentIdentifier, stored: Int, attributes: inout [Value], links sent: inout [SQLLink], changed: inout [Int]) throws {
        // The to-many lists were read with the row (`storedTargets`): not read again.
        guard let row = try records.snapshot(entity, key, knownTargets: { Array(self.storedTargets.targets(stored, $0)) }) else { return }
        let storedLinks = entity.relationshipIsToMany.enumerated().map { r, many in
            let targets = storedTargets.targets(stored, r)
            return many ? Link.many(Array(targets)) : Link.one(targets.first)
        }
        let merged = try scope.merged(attributes: attributes, links: sent.map(\.link), storedAttributes: row.attributes, storedLinks: storedLinks, entity: entity, identifier: id) { value, r in try link(value, entity, r, id, stored: storedTargets.targets(stored, r)).link }
        let mergedLinks = merged.links.map(SQLLink.init)
        if merged.attributes != attributes || mergedLinks != sent { refreshed.insert(Key(entity: entity.index, key: key)) }
        (attributes, sent) = (merged.attributes, mergedLinks)
        // The columns to write are those the merged values change, compared as they are written
        // (`SQLValueCodec`: −0 and NaN by their bits) with the row just read, not read again.
        changed = attributes.indices.filter { i in
            i >= row.attributes.count || SQLValueCodec.encode(attributes[i]) != SQLValueCodec.encode(row.attributes[i])
        }
    }
}
