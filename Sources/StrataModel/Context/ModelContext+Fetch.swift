import Foundation

extension ModelContext {
    /// The objects matching `descriptor`, in order: registered objects for records already in the
    /// context, new objects (loading lazily) for the others. With `includePendingChanges` (the
    /// default) unsaved inserts that match are included, changed objects are judged by their
    /// current values and deleted ones are left out.
    ///
    /// - Throws: `unsupportedPredicate` for a `#Predicate` with no store translation, before any
    ///   store work; the store's error otherwise.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        autosaveBeforeReading()
        let request = try descriptor.storeDescriptor()
        try descriptor.checkPropertiesToFetch()
        let plan = try prefetchPlan(descriptor.relationshipKeyPathsForPrefetching)
        let pending = descriptor.includePendingChanges ? pendingSet(of: T.entityName) : PendingSet()
        // The descriptor travels beside the core fetch, for a custom store (`ContextFetch`).
        let models: [T] = try ContextFetches.answering(descriptor, request, by: store) {
            if pending.isEmpty { return try registerAll(try store.fetch(request), as: T.self) }
            let info = ModelTypeInfo.of(T.self)
            return try pendingRows(request, pending).compactMap { row in
                switch row {
                case .snapshot(let snapshot): try register(snapshot, as: T.self, info: info)
                case .object(let model): model as? T
                }
            }
        }
        try prefetch(plan, for: models)
        return models
    }

    /// How many objects match `descriptor` (window applied): counted by the store, corrected for
    /// the context's pending changes when `includePendingChanges` is set.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        autosaveBeforeReading()
        let request = try descriptor.storeDescriptor()
        let pending = descriptor.includePendingChanges ? pendingSet(of: T.entityName) : PendingSet()
        return try ContextFetches.answering(descriptor, request, by: store) {
            pending.isEmpty ? try store.fetchCount(request) : try pendingCount(request, pending)
        }
    }

    /// The identifiers of the objects matching `descriptor`, in order, without making objects
    /// (new objects of the context, with `includePendingChanges`, by their temporary identifier).
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        autosaveBeforeReading()
        let request = try descriptor.storeDescriptor()
        let pending = descriptor.includePendingChanges ? pendingSet(of: T.entityName) : PendingSet()
        return try ContextFetches.answering(descriptor, request, by: store) {
            pending.isEmpty ? try store.fetchIdentifiers(request) : try pendingRows(request, pending).map(\.identifier)
        }
    }

    /// Calls `block` with each matching object, loading `batchSize` records at a time.
    ///
    /// Objects this call loaded are released from the context after their batch unless `block`
    /// changed them (those stay registered for the next save), so memory stays bounded by the
    /// batch size, however many records match. It reads the store: unsaved objects of the context
    /// are not enumerated.
    public func enumerate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int = 5_000, block: (T) throws -> Void) throws {
        autosaveBeforeReading()
        let ids = try store.fetchIdentifiers(descriptor.storeDescriptor())
        var start = 0
        let size = max(1, batchSize)
        while start < ids.count {
            let batch = Array(ids[start..<min(start + size, ids.count)])
            start += size
            let fresh = Set(batch.filter { registered[$0] == nil })
            let snapshots = try store.fetch(Strata.FetchDescriptor(entity: T.entityName, predicate: .identifierIn(batch)))
            var byID: [PersistentIdentifier: T] = [:]
            for (snapshot, model) in zip(snapshots, try registerAll(snapshots, as: T.self)) { byID[snapshot.persistentIdentifier] = model }
            for id in batch {
                guard let model = byID[id] else { continue }
                try block(model)
            }
            for id in fresh {
                guard let model = registered[id], !model.persistentBackingData.hasChanges, deleted[ObjectIdentifier(model)] == nil else { continue }
                registered.removeValue(forKey: id)
                model.persistentBackingData.context = nil
            }
        }
    }

    /// Deletes every record of `T` matching `filter` in the store, now, in one atomic save whose
    /// delete rules run in the store (cascades reach records never loaded). Registered objects
    /// are updated from the result; pending changes of this context are not saved by it.
    ///
    /// - Throws: the store's error (`deleteDenied`…); then nothing was deleted.
    public func delete<T: PersistentModel>(model: T.Type, where filter: FetchPredicate? = nil) throws {
        let entity = try entity(of: T.self)
        let ids = try store.fetchIdentifiers(Strata.FetchDescriptor(entity: T.entityName, predicate: filter))
        guard !ids.isEmpty else { return }
        let result = try store.save(SaveRequest(deleted: ids.map { Strata.DefaultSnapshot(entity: entity, persistentIdentifier: $0, attributes: [], relationships: []) }, author: author))
        for id in result.deletedIdentifiers {
            guard let model = registered.removeValue(forKey: id) else { continue }
            model.persistentBackingData.isDeleted = true
            model.persistentBackingData.context = nil
            let key = ObjectIdentifier(model)
            changed.removeValue(forKey: key)
            if deleted.removeValue(forKey: key) != nil { deletedOrder.removeAll { $0 == key } }
        }
        for (id, snapshot) in result.changedSnapshots {
            guard let model = registered[id] else { continue }
            if model.persistentBackingData.hasChanges {
                model.persistentBackingData.snapshot = .plain(snapshot)  // keep the pending values, base them on the new state
            } else {
                refresh(model, with: .plain(snapshot))
            }
        }
        container.publish(ModelChanges(inserted: [], updated: Array(result.changedSnapshots.keys), deleted: Array(result.deletedIdentifiers)))
    }

    /// Deletes every record of `T` matching a `#Predicate`, in the store, now (see
    /// `delete(model:where:)` with a core predicate). The predicate is translated, never
    /// evaluated in memory; an untranslatable one throws `unsupportedPredicate` and deletes nothing.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>) throws {
        try delete(model: model, where: try PredicateTranslator.translate(predicate))
    }

    /// Inserts `model`, or — if the store already holds a record with the same values for one of
    /// the entity's unique constraints — copies `model`'s attribute values onto that record's
    /// object and returns it instead. The explicit alternative to a plain insert, which fails
    /// loudly on a collision.
    ///
    /// The lookup runs now; a record inserted by someone else between this call and `save()`
    /// still makes the save fail with `uniqueConstraintViolation`. Relationships of `model` are
    /// not copied; a `model` this context already holds as a new object (setting its to-one to an
    /// object of the context inserts it) is taken out again when a stored record is found.
    @discardableResult
    public func upsert<T: PersistentModel>(_ model: T) throws -> T {
        let entity = try entity(of: T.self)
        let info = model.persistentBackingData.info
        for constraint in entity.uniqueConstraints {
            var parts: [FetchPredicate] = []
            var complete = true
            for property in constraint {
                switch property {
                case .attribute(let i):
                    guard case .attribute(let value) = model._$encode(info.attributeOrdinals[i]), !value.isNull else { complete = false; break }
                    parts.append(.compare(PropertyPath([entity.attributes[i].name]), .equal, value))
                case .relationship(let r):
                    guard r < info.relationshipOrdinals.count, case .toOne(let target?) = model._$encode(info.relationshipOrdinals[r]), !target.persistentModelID.isTemporary else { complete = false; break }
                    parts.append(.targetIs(PropertyPath([entity.relationships[r].name]), target.persistentModelID))
                }
            }
            guard complete, let snapshot = try store.fetch(Strata.FetchDescriptor(entity: T.entityName, predicate: .and(parts), fetchLimit: 1)).first else { continue }
            let existing = try register(snapshot, as: T.self)
            guard existing !== model else { return model }
            for ordinal in info.attributeOrdinals {
                if case .attribute(let value) = model._$encode(ordinal) { try existing._$assign(ordinal, value) }
            }
            // Relating the candidate to an object of this context (the to-one part of a constraint
            // like `#Unique([\.label, \.owner])`) already inserted it, as in SwiftData; it stands for
            // `existing` now, so it must not be saved as a second record (issue 27).
            if insertedSet.contains(ObjectIdentifier(model)) { delete(model) }
            return existing
        }
        insert(model)
        return model
    }
}
