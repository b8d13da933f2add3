/// Rebuilding a state from records read back from disk, with the checks a damaged file needs.
extension StoreState {
    /// One past the largest primary key the engine assigns or loads. Keys run from 1 to
    /// `Int64.max - 1`, so the counter of the next key (largest key + 1) always fits in an `Int64`.
    public static var keyLimit: Int64 { SaveValidation.keyLimit }

    /// Adds a record read from storage, as-is: links are primary keys of the destination entities.
    ///
    /// - Throws: `corruptStore` if the record does not fit the entity's shape or its key is taken.
    public mutating func load(_ entity: EntitySchema, key: Int64, record: StoredRecord) throws {
        try Self.checkLoaded(entity, key: key)
        guard record.attributes.count == entity.attributes.count, record.links.count == entity.relationships.count else {
            throw StrataError(.corruptStore, "Record \(key) of '\(entity.name)' has the wrong number of values.", entity: entity.name)
        }
        // The flat per-attribute arrays, not `entity.attributes`: iterating `Attribute`s copied each
        // one (its name's reference count) for every value of every record a file holds.
        let types = entity.attributeTypes, optional = entity.attributeIsOptional
        for i in types.indices {
            let type = record.attributes[i].type
            if type == nil ? !optional[i] : type != types[i] {
                let a = entity.attributes[i]
                throw StrataError(.corruptStore, "Record \(key) of '\(entity.name)' holds \(record.attributes[i]) in '\(a.name)', which is \(a.isOptional ? "optional " : "")\(a.type.rawValue).", entity: entity.name, properties: [a.name])
            }
        }
        let toMany = entity.relationshipIsToMany
        for i in toMany.indices {
            let isMany: Bool
            switch record.links[i] {
            case .one: isMany = false
            case .many: isMany = true
            }
            if isMany != toMany[i] {
                let r = entity.relationships[i]
                throw StrataError(.corruptStore, "Record \(key) of '\(entity.name)' holds a link of the wrong shape in '\(r.name)'.", entity: entity.name, properties: [r.name])
            }
        }
        guard !tables[entity.index].records.contains(key) else {
            throw StrataError(.corruptStore, "Primary key \(key) of '\(entity.name)' appears twice.", entity: entity.name)
        }
        tables[entity.index].records[key] = record
        tables[entity.index].nextPrimaryKey = max(tables[entity.index].nextPrimaryKey, key + 1)
    }

    /// Removes a record while rebuilding a state (a journal's delete or the old version of a put).
    ///
    /// - Throws: `corruptStore` for a key outside 1 ..< `keyLimit`, which no save writes (checked
    ///   before the key reaches the record table, which has no place for it).
    public mutating func unload(_ entity: EntitySchema, key: Int64) throws {
        try Self.checkLoaded(entity, key: key)
        tables[entity.index].records[key] = nil
    }

    /// A key read from storage must be one the engine could have assigned.
    private static func checkLoaded(_ entity: EntitySchema, key: Int64) throws {
        guard key > 0, key < keyLimit else {
            throw StrataError(.corruptStore, "Record of '\(entity.name)' has primary key \(key); keys run from 1 to \(keyLimit - 1).", entity: entity.name)
        }
    }

    /// Raises the key counter of `entity` to at least `next` (the persisted counter, which may be
    /// higher than the largest stored key after deletes). Any value is safe: a counter at
    /// `keyLimit` makes the next insert fail with `keysExhausted`, never overflow.
    public mutating func setNextPrimaryKey(_ entity: EntitySchema, atLeast next: Int64) {
        tables[entity.index].nextPrimaryKey = max(tables[entity.index].nextPrimaryKey, next)
    }

    /// Sets the history read back from storage (a file backend keeps it beside its records).
    public mutating func loadHistory(_ log: HistoryLog) { history = log }

    /// Rebuilds the unique indexes after loading; a duplicate means the file was edited into a state
    /// the store would never have written.
    ///
    /// - Throws: `corruptStore` naming the entity, properties and both records.
    public mutating func finishLoading() throws {
        try buildUniqueIndexes { entity, properties, other, key in
            StrataError(.corruptStore, "Records \(other.primaryKey) and \(key.primaryKey) of '\(entity.name)' share unique values.", entity: entity.name, properties: properties, identifiers: [other, key])
        }
    }

    /// Builds every unique index from the records; `collision` makes the error for two records
    /// (the lower key first) sharing values of one constraint.
    mutating func buildUniqueIndexes(collision: (EntitySchema, [String], PersistentIdentifier, PersistentIdentifier) -> StrataError) throws {
        for entity in schema.entities where !entity.uniqueConstraints.isEmpty {
            let count = tables[entity.index].records.count
            for c in entity.uniqueConstraints.indices {
                var index = ShardedDictionary<UniqueKey, Int64>()
                // Sized once (no shard grows and rehashes four times on the way), one hash per key.
                index.reserveCapacity(forAdding: count)
                try tables[entity.index].records.forEach { key, record in
                    guard let u = uniqueKey(entity, c, record) else { return true }
                    if let other = index.updateValue(key, forKey: u) {
                        throw collision(entity, entity.uniqueConstraints[c].map(entity.name(of:)), identifier(entity, other), identifier(entity, key))
                    }
                    return true
                }
                tables[entity.index].uniqueIndexes[c] = index
            }
        }
    }
}

extension StrataError {
    /// The error of an insert into an entity whose key counter reached `StoreState.keyLimit`; every
    /// backend reports exhaustion with this one message.
    public static func keysExhausted(_ entity: EntitySchema) -> StrataError {
        StrataError(.keysExhausted, "'\(entity.name)' has used every primary key up to \(StoreState.keyLimit - 1); keys are never reused, so no record can be inserted. Copy the records into a new store to renumber them.", entity: entity.name)
    }
}
