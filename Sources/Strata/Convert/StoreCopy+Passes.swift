/// The two passes of a `StoreCopy`, with what they share: the key map built by the records pass
/// and read by every mapping of a reference.
struct StoreCopyRun<Source: DataStore, Destination: DataStore> {
    let source: Source
    let destination: Destination
    let batch: Int
    let total: Int
    let progress: (@Sendable (StoreCopy.Progress) -> Void)?
    var keyMap = StoreKeyMap()
    var done = 0
    var linked = 0
    var linkTargets = 0
    var dropped = 0

    /// The relationships the links pass writes for `entity`: of each pair of inverses not written
    /// by the records pass, one side — the ordered side (both when both are ordered, so each list
    /// keeps its order), else the to-one side, else the side declared first. The store maintains
    /// the other side, so each link is written once.
    func linksPassIndices(_ entity: EntitySchema) -> [Int] {
        let entities = source.schema.entities
        return entity.relationships.indices.filter { r in
            let relationship = entity.relationships[r]
            let target = entities[entity.destinationIndices[r]]
            let inverse = target.relationships[entity.inverseIndices[r]]
            if StoreCopy.isRequired(relationship) { return false }
            if relationship.isOrdered { return true }
            if StoreCopy.isRequired(inverse) || inverse.isOrdered { return false }
            if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
            return (entity.index, r) <= (target.index, entity.inverseIndices[r])
        }
    }

    /// Pass 1 for `entity`: each batch of records inserted with its attributes and required links.
    /// A destination with the `chosenKeys` capability keeps every key: each run of consecutive
    /// source keys is one save whose first insert takes the run's first key (`SaveRequest.firstKeys`),
    /// so a gap costs one more save. Another destination numbers the batch from its counter.
    mutating func records(_ entity: EntitySchema) throws {
        let choosing = destination.capabilities.contains(.chosenKeys)
        var batches = try KeyBatches(source, entity, size: batch)
        while let records = try batches.next() {
            var start = records.startIndex
            while start < records.endIndex {
                var end = records.endIndex
                if choosing {
                    end = start + 1
                    while end < records.endIndex, records[end].persistentIdentifier.primaryKey == records[end - 1].persistentIdentifier.primaryKey + 1 { end += 1 }
                }
                try insert(records[start..<end], entity, choosingKeys: choosing)
                start = end
            }
            done += records.count
            progress?(StoreCopy.Progress(phase: "records", done: done, total: total))
        }
    }

    /// Inserts `records` of `entity` in one save, with their attributes and required links; with
    /// `choosingKeys` (consecutive keys) the first takes its source key, and so the others.
    private mutating func insert(_ records: ArraySlice<Source.Snapshot>, _ entity: EntitySchema, choosingKeys: Bool) throws {
        let target = destination.schema.entities[entity.index]
        let required = entity.relationships.indices.filter { StoreCopy.isRequired(entity.relationships[$0]) }
        var inserted: [Destination.Snapshot] = []
        inserted.reserveCapacity(records.count)
        for record in records {
            var links = target.relationships.map(RelationshipValue.empty(for:))
            for r in required { links[r] = try mapped(record.relationshipValue(at: r), entity, r, dropping: false) }
            inserted.append(Destination.Snapshot(entity: target, persistentIdentifier: .temporary(entity: target.name), attributes: record.attributeValues, relationships: links))
        }
        var request = SaveRequest(inserted: inserted)
        if choosingKeys, let first = records.first { request.firstKeys = [entity.name: first.persistentIdentifier.primaryKey] }
        let result = try destination.save(request)
        for (record, new) in zip(records, inserted) {
            guard let id = result.remappedIdentifiers[new.persistentIdentifier] else {
                throw StrataError(.invalidRequest, "The destination store returned no identifier for an inserted '\(entity.name)'.", entity: entity.name)
            }
            keyMap.append(entity.name, source: record.persistentIdentifier.primaryKey, destination: id.primaryKey)
        }
    }

    /// Pass 2 for `entity`: each record's other relationships, as a partial update that lists only
    /// the non-empty ones (a record with none is not written).
    mutating func links(_ entity: EntitySchema) throws {
        let target = destination.schema.entities[entity.index]
        let indices = linksPassIndices(entity)
        var batches = try KeyBatches(source, entity, size: batch)
        while let records = try batches.next() {
            var updated: [Destination.Snapshot] = []
            var properties: [PersistentIdentifier: UpdatedProperties] = [:]
            for record in records {
                var values = record.relationshipValues
                var listed: [Int] = []
                for r in indices where !values[r].targets.isEmpty {
                    values[r] = try mapped(values[r], entity, r, dropping: true)
                    if !values[r].targets.isEmpty { listed.append(r) }
                    linkTargets += values[r].targets.count
                }
                guard !listed.isEmpty else { continue }
                let id = try identifier(entity, record.persistentIdentifier.primaryKey)
                for r in values.indices where !listed.contains(r) { values[r] = .empty(for: entity.relationships[r]) }
                updated.append(Destination.Snapshot(entity: target, persistentIdentifier: id, attributes: record.attributeValues, relationships: values))
                properties[id] = UpdatedProperties(relationships: listed)
            }
            if !updated.isEmpty { _ = try destination.save(SaveRequest(updated: updated, updatedProperties: properties)) }
            linked += records.count
            progress?(StoreCopy.Progress(phase: "links", done: linked, total: total))
        }
    }

    /// The destination identifier of source record `key` of `entity`.
    func identifier(_ entity: EntitySchema, _ key: Int64) throws -> PersistentIdentifier {
        guard let new = keyMap.destinationKey(entity.name, key) else {
            throw StrataError(.invalidRequest, "Record \(key) of '\(entity.name)' was not copied.", entity: entity.name)
        }
        return PersistentIdentifier(storeIdentifier: destination.identifier, entityName: entity.name, primaryKey: new)
    }

    /// `value` of relationship `r` with every target named by its destination identifier. A target
    /// the source does not hold (a dangling `noAction` reference) is dropped and counted when
    /// `dropping`, an error otherwise (a required relationship cannot be left empty).
    mutating func mapped(_ value: RelationshipValue, _ entity: EntitySchema, _ r: Int, dropping: Bool) throws -> RelationshipValue {
        let targetEntity = entity.destinationNames[r]
        var targets: [PersistentIdentifier] = []
        targets.reserveCapacity(value.targets.count)
        for old in value.targets {
            if let new = keyMap.destinationKey(targetEntity, old.primaryKey) {
                targets.append(PersistentIdentifier(storeIdentifier: destination.identifier, entityName: targetEntity, primaryKey: new))
            } else if dropping {
                dropped += 1
            } else {
                throw StrataError(.invalidRequest, "'\(entity.name).\(entity.relationships[r].name)' is required and names '\(targetEntity)' \(old.primaryKey), which the source store does not hold; such a record cannot be saved into another store.", entity: entity.name, properties: [entity.relationships[r].name], identifiers: [old])
            }
        }
        return entity.relationships[r].isToMany ? .toMany(targets) : .toOne(targets.first)
    }
}
