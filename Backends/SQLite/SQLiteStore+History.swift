import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// History on SQLite: a save that records adds one row to `strata_history` before its COMMIT. An
/// update's values before the save come from the row the save itself reads on the writer to compare
/// (`SQLiteOldValues`), its values after from the request (or the save's result, for a record the
/// store changed further); only a deleted record's tombstone and a record the store changed on its
/// own are read, on a reader connection (WAL: the last committed state). A small hook at the end of
/// the save: the save transaction itself is unchanged.
extension SQLiteStore {
    /// Builds and writes the save's history transaction, inside the save; `last` is the newest
    /// number if the writer knows it (`Writer.history`). Returns the number written, or `nil` when
    /// the save changed nothing to record.
    func recordHistory(_ request: SaveRequest<SQLiteSnapshot>, _ result: SaveResult<SQLiteSnapshot>, _ transaction: SQLSaveTransaction<SQLiteSaveRecords>, last: Int64?) throws -> Int64? {
        let records = transaction.records.records
        let known = KnownUpdates(request, transaction)
        if let number = try recordOneUpdate(request, result, known, transaction, last: last) { return number == 0 ? nil : number }
        var recorder = HistoryRecorder(storeIdentifier: identifier, request: request)
        let tombstones = try tombstones(result.deletedIdentifiers)
        try recorder.record(request, result, schema: schema, updated: { id in
            if let values = known.values(id, after: result.changedSnapshots[id], records: records) { return values }
            let entity = try schema.requireEntity(id.entityName)
            guard let old = try lookup(entity, id), let new = try result.changedSnapshots[id]?.plain ?? records.snapshot(entity, id.primaryKey) else { return nil }
            return ((old.attributes, old.relationships), (new.attributes, new.relationships))
        }, deleted: { id in
            if let tombstones { return tombstones[id.entityName]?[id.primaryKey] }
            return try lookup(try schema.requireEntity(id.entityName), id)?.attributes
        })
        return try SQLiteHistory.append(transaction.db, recorder, author: request.author, last: last)
    }

    /// The attributes as last committed of the records a save deleted (their tombstones), by entity
    /// and key: one statement per entity on one reader (a cascade deletes hundreds, and a read per
    /// record cost a cascade-delete most of its time), or `nil` when it deleted at most one (read by
    /// key, `lookup`). A record the store does not hold has none, as with `lookup`.
    private func tombstones(_ deleted: Set<PersistentIdentifier>) throws -> [String: [Int64: [Value]]]? {
        guard deleted.count > 1 else { return nil }
        var keys: [String: [Int64]] = [:]
        for id in deleted where !id.isTemporary && id.storeIdentifier == identifier { keys[id.entityName, default: []].append(id.primaryKey) }
        // Several entities: one read transaction, so every statement sees the same committed state.
        return try withReader(consistent: keys.count > 1) { db in
            let records = SQLiteRecords(db: db, mapping: mapping, layouts: layouts, storeIdentifier: identifier)
            var found: [String: [Int64: [Value]]] = [:]
            for (name, list) in keys { found[name] = try records.attributeValues(try schema.requireEntity(name), keys: list) }
            return found
        }
    }

    /// The commonest save, recorded without a recorder: the request updated one record (its old
    /// values kept by the save), the store changed nothing else and no relationship of it
    /// (`HistoryRecorder.withEncodedUpdate`: no change built and destroyed). Returns the number
    /// written, 0 when no attribute changed (nothing recorded), or `nil` when the save is not that
    /// one (the caller records it the general way).
    private func recordOneUpdate(
        _ request: SaveRequest<SQLiteSnapshot>, _ result: SaveResult<SQLiteSnapshot>, _ known: KnownUpdates,
        _ transaction: SQLSaveTransaction<SQLiteSaveRecords>, last: Int64?
    ) throws -> Int64? {
        guard request.updated.count == 1, request.inserted.isEmpty, request.deleted.isEmpty, result.changedSnapshots.isEmpty,
            result.deletedIdentifiers.isEmpty, result.remappedIdentifiers.permanentIdentifiers.isEmpty
        else { return nil }
        let id = request.updated[0].persistentIdentifier
        guard !id.isTemporary, id.storeIdentifier == identifier, let (old, new) = known.values(id, after: nil, records: transaction.records.records),
            old.relationships.isEmpty, new.relationships.isEmpty
        else { return nil }
        let entity = try schema.requireEntity(id.entityName)
        guard HistoryRecorder.changesAttributes(entity, old: old.attributes, new: new.attributes) else { return 0 }
        return try SQLiteHistory.append(transaction.db, author: request.author, last: last) { number, write in
            try HistoryRecorder.withEncodedUpdate(
                storeIdentifier: identifier, number, author: request.author, entity, id.primaryKey, old: old.attributes, new: new.attributes, write)
        }
    }

    /// The request's whole-record updates whose old values the save kept (`SQLiteOldValues`): the
    /// `n`-th update is the save's write after its inserts, and the `n`-th row it read.
    private struct KnownUpdates {
        let request: SaveRequest<SQLiteSnapshot>
        let transaction: SQLSaveTransaction<SQLiteSaveRecords>
        let kept: [(key: Int64, old: [(index: Int, value: Value)])]
        /// Each update's place in the request, when there are several.
        let places: [PersistentIdentifier: Int]

        init(_ request: SaveRequest<SQLiteSnapshot>, _ transaction: SQLSaveTransaction<SQLiteSaveRecords>) {
            self.request = request
            self.transaction = transaction
            kept = transaction.records.oldValues?.updates ?? []
            var places: [PersistentIdentifier: Int] = [:]
            if request.updated.count > 1 {
                for (n, snapshot) in request.updated.enumerated() { places[snapshot.persistentIdentifier] = n }
            }
            self.places = places
        }

        /// The values of record `id` before and after the save, if it is a whole-record update of
        /// the request; `after` is the save's result for it, if the store changed it further.
        func values(_ id: PersistentIdentifier, after: SQLiteSnapshot?, records: SQLiteRecords) -> (old: HistoryRecorder.Values, new: HistoryRecorder.Values)? {
            let n: Int
            if request.updated.count == 1 {
                guard request.updated[0].persistentIdentifier == id else { return nil }
                n = 0
            } else {
                guard let place = places[id] else { return nil }
                n = place
            }
            // A partial update's row was merged with the stored one: read the old way.
            if !request.updatedProperties.isEmpty, request.updatedProperties[id] != nil { return nil }
            let writes = transaction.writes, at = request.inserted.count + n
            guard n < kept.count, at < writes.count else { return nil }
            let w = writes[at]
            guard !w.isInsert, w.key == id.primaryKey, kept[n].key == w.key, w.entity.name == id.entityName else { return nil }
            let entity = w.entity
            let newAttributes = after?.attributeValues ?? w.attributes
            var oldAttributes = newAttributes
            for (i, value) in kept[n].old where i < oldAttributes.count { oldAttributes[i] = value }
            // Relationships as identifiers, only those that changed: one that did not is the same
            // placeholder on both sides, which the recorder skips without building identifiers;
            // when none changed, no lists at all (the recorder compares none).
            let count = entity.relationships.count
            if after == nil, (0..<count).allSatisfy({ Self.same(w.links[$0], transaction.stored(w, $0)) }) {
                return ((oldAttributes, []), (newAttributes, []))
            }
            var oldLinks: [RelationshipValue] = [], newLinks: [RelationshipValue] = []
            oldLinks.reserveCapacity(count)
            newLinks.reserveCapacity(count)
            for r in 0..<count {
                let stored = transaction.stored(w, r)
                if let after {
                    newLinks.append(after.relationshipValue(at: r))
                } else if Self.same(w.links[r], stored) {
                    oldLinks.append(.toOne(nil))
                    newLinks.append(.toOne(nil))
                    continue
                } else {
                    newLinks.append(Self.value(w.links[r].keys[...], entity, r, records))
                }
                oldLinks.append(Self.value(stored, entity, r, records))
            }
            return ((oldAttributes, oldLinks), (newAttributes, newLinks))
        }

        private static func same(_ link: SQLLink, _ stored: ArraySlice<Int64>) -> Bool {
            switch link {
            case .one(let key): key.map { stored.count == 1 && stored.first == $0 } ?? stored.isEmpty
            case .many(let keys): keys.elementsEqual(stored)
            }
        }

        private static func value(_ keys: ArraySlice<Int64>, _ entity: EntitySchema, _ r: Int, _ records: SQLiteRecords) -> RelationshipValue {
            let destination = entity.destinationNames[r]
            if entity.relationshipIsToMany[r] { return .toMany(keys.map { records.id(destination, $0) }) }
            return .toOne(keys.first.map { records.id(destination, $0) })
        }
    }

    /// The recorded history, read in one read transaction (another process's commits included).
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try withReader(consistent: true) { db in try SQLiteHistory.fetch(db, query, storeIdentifier: identifier) }
    }

    /// Removes history through `token` in one write transaction.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("SQLite store", toDo: "delete history", file: configuration.url.path)
        }
        try token.requireStore(identifier)
        try writer.withLock { writer in
            let db = writer.db
            do {
                try db.execute("BEGIN IMMEDIATE")
                do {
                    try SQLiteHistory.delete(db, through: token.transaction)
                    // The next save reads the newest number from the table again.
                    writer.history = nil
                    try db.execute("COMMIT")
                    signalCommit()
                } catch {
                    try? db.execute("ROLLBACK")
                    throw error
                }
            } catch let error as SQLiteError {
                throw error.strataError(file: configuration.url.path)
            }
        }
    }
}
