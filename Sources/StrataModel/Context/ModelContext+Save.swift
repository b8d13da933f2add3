import Foundation

extension ModelContext {
    /// Sends every pending insert, change and delete to the store in one atomic save (one per
    /// store when the container has several configurations).
    ///
    /// Inserts carry all their properties; an update carries only the properties set since the
    /// object was loaded (`SaveRequest.updatedProperties`), so another context's changes to other
    /// properties of the same record survive. Afterwards the objects hold permanent identifiers,
    /// and what the store changed on its own (inverses, nullified relationships, cascades) is
    /// applied to the registered objects.
    ///
    /// - Throws: the store's error (`uniqueConstraintViolation`, `deleteDenied`,
    ///   `writeConflict` with `checksConflicts`…); then nothing was saved and every pending change
    ///   is still pending, to fix or `rollback()`. In a container of several configurations each
    ///   store's part is one atomic save, in configuration order; the parts saved before the one
    ///   that failed stay saved and are no longer pending.
    public func save() throws {
        guard hasChanges else { return }
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)
        guard let routed = store as? RoutedModelStore else {
            let changes = try saveRecords(where: nil)
            container.publish(changes)
            postDidSave(changes)
            return
        }
        // Several configurations: one atomic save per store, in configuration order. No
        // relationship crosses stores, so each part stands alone; when one fails, the parts saved
        // before it stay saved (and are no longer pending) and the rest stay pending.
        let pendingModels = inserted + Array(changed.values) + Array(deleted.values)
        let indices = Set(pendingModels.compactMap { routed.storeOfEntity[$0.persistentBackingData.info.entityName] }).sorted()
        var saved = ModelChanges(inserted: [], updated: [], deleted: [])
        defer {
            if !(saved.inserted.isEmpty && saved.updated.isEmpty && saved.deleted.isEmpty) {
                container.publish(saved)
                postDidSave(saved)
            }
        }
        for index in indices {
            let part = try saveRecords { routed.storeOfEntity[$0] == index }
            saved.inserted += part.inserted
            saved.updated += part.updated
            saved.deleted += part.deleted
        }
    }

    /// Saves the pending inserts, changes and deletes of the entities `holds` accepts (all of them
    /// when `nil`) in one store save, applies the result and returns what it changed.
    private func saveRecords(where holds: ((String) -> Bool)?) throws -> ModelChanges {
        func kept(_ models: [any PersistentModel]) -> [any PersistentModel] {
            guard let holds else { return models }
            return models.filter { holds($0.persistentBackingData.info.entityName) }
        }
        let inserts = kept(inserted)
        var request = SaveRequest<Strata.DefaultSnapshot>()
        request.author = author
        request.inserted.reserveCapacity(inserts.count)
        for model in inserts { request.inserted.append(try insertSnapshot(model)) }
        let updates = kept(changedModelsArray)
        for model in updates {
            let (snapshot, properties) = try updateSnapshot(model)
            request.updated.append(snapshot)
            request.updatedProperties[snapshot.persistentIdentifier] = properties
        }
        for model in kept(deletedModelsArray) {
            request.deleted.append(Strata.DefaultSnapshot(entity: try entity(of: model), persistentIdentifier: model.persistentModelID, attributes: [], relationships: []))
        }
        let result = try store.save(request)
        apply(result, inserted: zip(inserts, request.inserted), updated: zip(updates, request.updated), clearing: holds)
        let sentUpdates = Set(request.updated.map(\.persistentIdentifier))
        return ModelChanges(
            inserted: result.remappedIdentifiers.permanentIdentifiers,
            updated: request.updated.map(\.persistentIdentifier) + result.changedSnapshots.keys.filter { !sentUpdates.contains($0) },
            deleted: Array(result.deletedIdentifiers))
    }

    /// Discards every pending insert, change and delete: inserted objects leave the context,
    /// changed objects return to their stored values, deleted ones are no longer deleted.
    public func rollback() {
        for model in inserted {
            model.persistentBackingData.context = nil
        }
        inserted = []
        insertedSet = []
        for model in deletedModelsArray { model.persistentBackingData.isDeleted = false }
        let undeleted = deleted
        deleted = [:]
        deletedOrder = []
        // Unload what differs from the stored records: changed objects, deleted ones, and saved
        // objects an inverse changed in memory. The rest of the identity map is as stored, and
        // reloading every registered object would tell its observers of every property: most of a
        // failed save's cost after a large fetch (callgrind on `strata-model-bench`, docs/benchmarks.md).
        var reload = changed
        reload.merge(undeleted) { first, _ in first }
        reload.merge(inverseTouched) { first, _ in first }
        for model in reload.values where registered[model.persistentModelID] === model {
            model.persistentBackingData.clearChanges()
            model._$refault()
        }
        changed = [:]
        changedOrder = []
        inverseTouched = [:]
    }

    /// Runs `block` and saves; if `block` or the save throws, rolls everything back and rethrows.
    public func transaction(_ block: () throws -> Void) throws {
        do {
            try block()
            try save()
        } catch {
            rollback()
            throw error
        }
    }

    // MARK: Building the request

    private func insertSnapshot(_ model: any PersistentModel) throws -> Strata.DefaultSnapshot {
        let entity = try entity(of: model)
        let info = model.persistentBackingData.info
        var attributes: [Value] = []
        attributes.reserveCapacity(entity.attributes.count)
        for ordinal in info.attributeOrdinals {
            switch model._$encode(ordinal) {
            case .attribute(let value): attributes.append(value)
            case .unencodable(let why): throw Self.unencodable(model, info, ordinal, why)
            default: attributes.append(.null)
            }
        }
        var relationships: [RelationshipValue] = []
        relationships.reserveCapacity(entity.relationships.count)
        for ordinal in info.relationshipOrdinals { relationships.append(try relationshipValue(model._$encode(ordinal), of: model)) }
        // Hidden inverses of one-way relationships start empty; the store maintains them.
        for r in relationships.count..<entity.relationships.count { relationships.append(.empty(for: entity.relationships[r])) }
        return Strata.DefaultSnapshot(entity: entity, persistentIdentifier: model.persistentBackingData.persistentModelID, attributes: attributes, relationships: relationships)
    }

    private func updateSnapshot(_ model: any PersistentModel) throws -> (Strata.DefaultSnapshot, UpdatedProperties) {
        let backing = model.persistentBackingData
        guard var snapshot = backing.snapshot?.plain else { throw StrataError(.invalidRequest, "\(model.persistentModelID) has no stored state to update.") }
        var properties = UpdatedProperties()
        for ordinal in backing.changedOrdinals {
            let value = model._$encode(ordinal)
            if let i = backing.info.attributeIndex[ordinal] {
                if case .unencodable(let why) = value { throw Self.unencodable(model, backing.info, ordinal, why) }
                guard case .attribute(let v) = value else { continue }
                snapshot.attributes[i] = v
                properties.attributes.append(i)
            } else if let r = backing.info.relationshipIndex[ordinal] {
                if case .stored = value { continue }
                snapshot.relationships[r] = try relationshipValue(value, of: model)
                properties.relationships.append(r)
            }
        }
        if checksConflicts, let stored = backing.snapshot {
            properties.expectedAttributes = properties.attributes.map { stored.attribute(at: $0) }
            properties.expectedRelationships = properties.relationships.map { stored.relationship(at: $0) }
        }
        return (snapshot, properties)
    }

    private func relationshipValue(_ value: _PropertyValue, of owner: any PersistentModel) throws -> RelationshipValue {
        func id(_ target: any PersistentModel) throws -> PersistentIdentifier {
            let backing = target.persistentBackingData
            guard backing.context === self else {
                throw StrataError(.invalidRequest, "\(type(of: owner)) \(owner.persistentModelID) points at a \(type(of: target)) that is not in this context (inserted in another context, or removed by rollback). Insert it here, or look it up with model(for:).", entity: type(of: owner).entityName, identifiers: [owner.persistentModelID, target.persistentModelID])
            }
            return backing.persistentModelID
        }
        switch value {
        case .toOne(let target): return .toOne(try target.map(id))
        case .toMany(let targets): return .toMany(try targets.map(id))
        case .stored, .attribute, .unencodable: return .toOne(nil)
        }
    }

    /// The save's refusal of a property value that cannot be stored (its `encode(to:)` threw).
    private static func unencodable(_ model: any PersistentModel, _ info: ModelTypeInfo, _ ordinal: Int, _ why: String) -> StrataError {
        let name = info.properties[ordinal].name
        return StrataError(
            .typeMismatch, "\(info.entityName).\(name) holds a value that cannot be encoded (\(why)); nothing was saved.",
            entity: info.entityName, properties: [name], identifiers: [model.persistentModelID])
    }

    // MARK: Applying the result

    /// What the store now holds for a sent snapshot: its permanent identifier and its targets'.
    /// The attribute array is shared, not rebuilt as `copy(persistentIdentifier:remappedIdentifiers:)`
    /// rebuilds it for any snapshot type.
    private static func stored(_ sent: Strata.DefaultSnapshot, as id: PersistentIdentifier, _ remap: IdentifierRemapping) -> Strata.DefaultSnapshot {
        Strata.DefaultSnapshot(entity: sent.entity, persistentIdentifier: id, attributes: sent.attributes, relationships: sent.relationships.map { $0.remapped(remap) })
    }

    private func apply(
        _ result: SaveResult<Strata.DefaultSnapshot>,
        inserted insertedPairs: Zip2Sequence<[any PersistentModel], [Strata.DefaultSnapshot]>,
        updated updatedPairs: Zip2Sequence<[any PersistentModel], [Strata.DefaultSnapshot]>,
        clearing holds: ((String) -> Bool)?
    ) {
        let remap = result.remappedIdentifiers
        registered.reserveCapacity(registered.count + remap.count)
        for (model, sent) in insertedPairs {
            let backing = model.persistentBackingData
            guard let permanent = remap[sent.persistentIdentifier] else { continue }
            backing.persistentModelID = permanent
            backing.snapshot = .plain(Self.stored(sent, as: permanent, remap))
            backing.clearChanges()
            registered[permanent] = model
        }
        for (model, sent) in updatedPairs {
            model.persistentBackingData.snapshot = .plain(Self.stored(sent, as: sent.persistentIdentifier, remap))
            model.persistentBackingData.clearChanges()
        }
        for id in result.deletedIdentifiers {
            guard let model = registered.removeValue(forKey: id) else { continue }
            model.persistentBackingData.isDeleted = true
            model.persistentBackingData.context = nil
        }
        for (id, snapshot) in result.changedSnapshots {
            guard let model = registered[id] else { continue }
            model.persistentBackingData.snapshot = .plain(snapshot)
            model._$refault()
        }
        guard let holds else {
            inserted = []
            insertedSet = []
            changed = [:]
            changedOrder = []
            deleted = [:]
            deletedOrder = []
            // The store applied the same inverses; what it changed came back in `changedSnapshots`.
            inverseTouched = [:]
            return
        }
        // One store of several saved: only its entities' objects stop being pending.
        func other(_ model: any PersistentModel) -> Bool { !holds(model.persistentBackingData.info.entityName) }
        inserted = inserted.filter(other)
        insertedSet = Set(inserted.map { ObjectIdentifier($0) })
        changed = changed.filter { other($0.value) }
        changedOrder = changedOrder.filter { changed[$0] != nil }
        deleted = deleted.filter { other($0.value) }
        deletedOrder = deletedOrder.filter { deleted[$0] != nil }
        inverseTouched = inverseTouched.filter { other($0.value) }
    }
}
