extension CustomStoreAdapter {
    /// Hands the save to the custom store as a `DataStoreSaveChangesRequest` and maps its answer
    /// back (see `CustomStoreAdapter` for what the adapter adds).
    ///
    /// - Throws: `readOnlyStore` for a read-only configuration, `writeConflict` when a partial
    ///   update's conflict check fails, and whatever the custom store throws.
    public func save(_ request: SaveRequest<Strata.DefaultSnapshot>) throws -> SaveResult<Strata.DefaultSnapshot> {
        if configuration.isReadOnly {
            throw StrataError.readOnly("custom store '\(configuration.name)'", toDo: "save", file: nil)
        }
        return try locked {
            var plan = try SavePlan(request, adapter: self)
            try plan.maintainInverses()
            let watched = cascadeTargets(of: Set(request.deleted.map(\.entity.name)))
            let before = try identifiers(of: watched)
            // The save's author (the context's `author`) rides in the editing state, as in SwiftData.
            var state = editingState
            state.author = request.author
            let result = try wrapped.save(DataStoreSaveChangesRequest(
                editingState: state,
                inserted: plan.inserted.map { try wrappedSnapshot(DefaultSnapshot($0)) },
                updated: plan.updated.map { try wrappedSnapshot(DefaultSnapshot($0)) },
                deleted: request.deleted.map { try wrappedSnapshot(DefaultSnapshot($0)) }))
            let remapping = IdentifierRemapping(result.remappedIdentifiers)
            let rewritten = try rewriteTemporaryReferences(sent: plan.inserted + plan.updated, remapping, editingState: state)
            var deleted = Set(request.deleted.map(\.persistentIdentifier))
            if !watched.isEmpty { deleted.formUnion(before.subtracting(try identifiers(of: watched))) }
            var changed: [PersistentIdentifier: Strata.DefaultSnapshot] = [:]
            for row in plan.changedBeyondRequest() {
                let permanent = remapping[row.persistentIdentifier] ?? row.persistentIdentifier
                changed[permanent] = row.copy(persistentIdentifier: permanent, remappedIdentifiers: remapping)
            }
            for (id, snapshot) in result.snapshotsToReregister.merging(rewritten, uniquingKeysWith: { $1 }) {
                guard let row = try coreSnapshot(snapshot) else { continue }
                let permanent = remapping[id] ?? id
                changed[permanent] = row.copy(persistentIdentifier: permanent, remappedIdentifiers: remapping)
            }
            return SaveResult(storeIdentifier: result.storeIdentifier, remappedIdentifiers: remapping, deletedIdentifiers: deleted, changedSnapshots: changed)
        }
    }

    /// Rewrites references to records this save inserted that the store kept under their
    /// temporary identifiers (WWDC24's sample copies inserted snapshots without remapping their
    /// relationships), with a second save of the records concerned. Returns the snapshots that
    /// second save wrote; none when the store remapped.
    private func rewriteTemporaryReferences(sent: [Strata.DefaultSnapshot], _ remapping: IdentifierRemapping, editingState: EditingState) throws -> [PersistentIdentifier: Wrapped.Snapshot] {
        guard !remapping.isEmpty else { return [:] }
        let holders = sent.filter { $0.relationships.contains { $0.targets.contains { remapping[$0] != nil } } }
        guard !holders.isEmpty else { return [:] }
        let cache = RecordCache()
        var rewritten: [DefaultSnapshot] = []
        for holder in holders {
            let id = remapping[holder.persistentIdentifier] ?? holder.persistentIdentifier
            guard let stored = cache.record(id, load: { try records(ofEntityNamed: id.entityName, into: cache) }) else { continue }
            let remapped = stored.relationships.map { $0.remapped(remapping) }
            if remapped != stored.relationships {
                rewritten.append(DefaultSnapshot(Strata.DefaultSnapshot(entity: stored.entity, persistentIdentifier: id, attributes: stored.attributes, relationships: remapped)))
            }
        }
        if let error = cache.failure { throw error }
        guard !rewritten.isEmpty else { return [:] }
        let snapshots = try rewritten.map(wrappedSnapshot)
        _ = try wrapped.save(DataStoreSaveChangesRequest(editingState: editingState, inserted: [], updated: snapshots, deleted: []))
        return Dictionary(zip(rewritten.map(\.persistentIdentifier), snapshots), uniquingKeysWith: { $1 })
    }

    /// The entities whose records a delete of `entities`' records can delete by cascade.
    private func cascadeTargets(of entities: Set<String>) -> [String] {
        var found: [String] = []
        var pending = Array(entities)
        while let name = pending.popLast() {
            for r in schema.entity(named: name)?.relationships ?? [] where r.deleteRule == .cascade && !found.contains(r.destination) {
                found.append(r.destination)
                pending.append(r.destination)
            }
        }
        return found
    }

    /// The identifiers of every record of `entities`.
    private func identifiers(of entities: [String]) throws -> Set<PersistentIdentifier> {
        let cache = RecordCache()
        var ids = Set<PersistentIdentifier>()
        for name in entities { ids.formUnion(try records(ofEntityNamed: name, into: cache).map(\.persistentIdentifier)) }
        return ids
    }
}
