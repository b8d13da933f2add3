/// Applying a `SchemaMigration` to a whole state: what the engine-based backends (memory, JSON,
/// CSV, XML) do before they write the result as one atomic step.
extension StoreState {
    /// This state's records rewritten at `migration.destination`: same store identifier, same
    /// primary keys and key counters, values and links mapped by the migration.
    ///
    /// - Throws: `uniqueConstraintViolation` naming two records (the lower key first) that share
    ///   values under a unique constraint of the destination; `relationshipCountViolation` for a
    ///   to-many list outside its new bounds; `schemaMismatch` when this state is not at
    ///   `migration.source`. Nothing is changed: the result is a new value.
    public func migrated(by migration: SchemaMigration) throws -> StoreState {
        guard schema.fingerprint == migration.source.fingerprint else {
            throw StrataError(.schemaMismatch, "The migration starts at schema \(migration.source.version) (fingerprint \(migration.source.fingerprint)); the store holds fingerprint \(schema.fingerprint).")
        }
        var next = StoreState(schema: migration.destination, storeIdentifier: storeIdentifier)
        // History is of records, not of the schema: it outlives a migration (its old values are
        // of the source schema, as SwiftData's are).
        next.history = history
        for (i, mapping) in migration.entities.enumerated() {
            guard let s = mapping.source else { continue }
            let entity = migration.destination.entities[i]
            let identity = migration.isIdentity(i)
            var records = PagedArray<StoredRecord>()
            tables[s].records.forEach { key, record in
                if identity {
                    records[key] = record
                } else {
                    let attributes = migration.attributes(i, from: record.attributes)
                    let links = mapping.relationships.enumerated().map { r, source in
                        source.map { record.links[$0] } ?? Link.empty(entity.relationships[r])
                    }
                    records[key] = StoredRecord(attributes: attributes, links: links)
                }
                return true
            }
            next.tables[i].records = records
            next.tables[i].nextPrimaryKey = tables[s].nextPrimaryKey
            try next.checkCounts(entity)
        }
        try next.buildUniqueIndexes { entity, properties, other, key in
            SaveRules.migrationUniqueViolation(entity, properties: properties, records: [other, key])
        }
        return next
    }

    /// Checks every to-many list of `entity` against its count bounds.
    private func checkCounts(_ entity: EntitySchema) throws {
        for (r, relationship) in entity.relationships.enumerated() where relationship.isToMany && (relationship.minCount != nil || relationship.maxCount != nil) {
            try tables[entity.index].records.forEach { key, record in
                try SaveRules.checkMigratedCount(entity, relationship, count: record.links[r].keys.count, record: identifier(entity, key))
                return true
            }
        }
    }
}
