/// Recording a save from the outside, for a backend whose uncommitted save can be read beside the
/// last committed state (SQLite's writer connection and WAL readers; any MVCC store, a third
/// party's included): the request and its result say which records changed — inserts, the
/// request's updates, `changedSnapshots` (every record the store changed on its own) and
/// `deletedIdentifiers` (cascades included) — and the two readers give their values before and
/// after.
extension HistoryRecorder {
    /// Records what `request` and its `result` changed.
    ///
    /// - Parameters:
    ///   - before: a record as last committed (before the save).
    ///   - after: a record as the save leaves it (inside the open transaction).
    public mutating func record<S: DataStoreSnapshot>(
        _ request: SaveRequest<S>, _ result: SaveResult<S>, schema: Schema,
        before: (PersistentIdentifier) throws -> DefaultSnapshot?, after: (PersistentIdentifier) throws -> DefaultSnapshot?
    ) throws {
        try record(request, result, schema: schema, updated: { id in
            guard let old = try before(id), let new = try after(id) else { return nil }
            return ((old.attributes, old.relationships), (new.attributes, new.relationships))
        }, deleted: { id in try before(id)?.attributes })
    }

    /// Records what `request` and its `result` changed, for a backend that knows an updated record's
    /// values before and after without reading them (SQLite: the old values from the row its save
    /// compares, the new ones from the request). Inlinable, so the backend's call is specialized for
    /// its snapshot type (the request's and result's collections read through generic witnesses
    /// cost a one-record save about 1,000 instructions).
    ///
    /// - Parameters:
    ///   - updated: a record the save changed (and did not delete): its values before and after.
    ///   - deleted: a deleted record's attributes as last committed (its tombstone).
    @inlinable public mutating func record<S: DataStoreSnapshot>(
        _ request: SaveRequest<S>, _ result: SaveResult<S>, schema: Schema,
        updated values: (PersistentIdentifier) throws -> (old: Values, new: Values)?, deleted tombstone: (PersistentIdentifier) throws -> [Value]?
    ) throws {
        let permanent = result.remappedIdentifiers.permanentIdentifiers
        if request.updated.count == 1, permanent.isEmpty, result.deletedIdentifiers.isEmpty,
            result.changedSnapshots.isEmpty || (result.changedSnapshots.count == 1 && result.changedSnapshots[request.updated[0].persistentIdentifier] != nil)
        {
            // One record updated and nothing else changed, the commonest save: no sets to build.
            let id = request.updated[0].persistentIdentifier
            if let (old, new) = try values(id) { updated(try schema.requireEntity(id.entityName), id.primaryKey, old: old, new: new) }
            return
        }
        let inserted = Set(permanent)
        reserveInserts(permanent.count)
        for id in permanent where !result.deletedIdentifiers.contains(id) {
            recordInsert(try schema.requireEntity(id.entityName), id.primaryKey)
        }
        var changed = Set<PersistentIdentifier>(minimumCapacity: request.updated.count + result.changedSnapshots.count)
        for snapshot in request.updated { changed.insert(snapshot.persistentIdentifier) }
        for id in result.changedSnapshots.keys { changed.insert(id) }
        changed.subtract(result.deletedIdentifiers)
        changed.subtract(inserted)
        // In any order: the recorded changes are handed on in entity then key order
        // (`RecordedChanges`, by entity index, which a sort by name here would not give anyway).
        for id in changed {
            let entity = try schema.requireEntity(id.entityName)
            guard let (old, new) = try values(id) else { continue }
            updated(entity, id.primaryKey, old: old, new: new)
        }
        for id in result.deletedIdentifiers where !inserted.contains(id) {
            guard let attributes = try tombstone(id) else { continue }
            deleted(try schema.requireEntity(id.entityName), id.primaryKey, attributes: attributes)
        }
    }
}
