extension StoreCopy {
    /// Compares `destination` with `source` record by record, as `strata dump` prints them: the
    /// same records, values bit for bit, ordered lists in order, unordered ones as sets; keys are
    /// compared through `keyMap`, and a source reference to a record it does not hold (a dangling
    /// `noAction` reference) counts as empty.
    ///
    /// - Throws: `corruptStore` naming the first entity and record that differ.
    public static func verify<Source: DataStore, Destination: DataStore>(_ source: Source, _ destination: Destination, keyMap: StoreKeyMap, batchSize: Int = 2_000, progress: (@Sendable (Progress) -> Void)? = nil) throws {
        var total = 0
        for entity in source.schema.entities { total += try source.fetchCount(FetchDescriptor(entity: entity.name)) }
        var done = 0
        for entity in source.schema.entities {
            let count = try source.fetchCount(FetchDescriptor(entity: entity.name))
            let copied = try destination.fetchCount(FetchDescriptor(entity: entity.name))
            guard count == copied else { throw difference(entity, "the source holds \(count) records, the copy \(copied)") }
            var sources = try KeyBatches(source, entity, size: max(1, batchSize))
            let copies = try KeyBatches(destination, destination.schema.entities[entity.index], size: max(1, batchSize))
            while let records = try sources.next() {
                let keys = try records.map { record in
                    guard let key = keyMap.destinationKey(entity.name, record.persistentIdentifier.primaryKey) else {
                        throw difference(entity, "record \(record.persistentIdentifier.primaryKey) was not copied")
                    }
                    return key
                }
                let found = try copies.fetch(keys)
                guard found.count == records.count else { throw difference(entity, "records of keys \(keys.first!)…\(keys.last!) are missing") }
                for (record, copy) in zip(records, found) { try compare(record, copy, entity, keyMap) }
                done += records.count
                progress?(Progress(phase: "verify", done: done, total: total))
            }
        }
    }

    private static func compare<A: DataStoreSnapshot, B: DataStoreSnapshot>(_ record: A, _ copy: B, _ entity: EntitySchema, _ keyMap: StoreKeyMap) throws {
        let key = record.persistentIdentifier.primaryKey
        for (i, attribute) in entity.attributes.enumerated() where record.attributeValue(at: i) != copy.attributeValue(at: i) {
            throw difference(entity, "record \(key): '\(attribute.name)' is \(record.attributeValue(at: i)) in the source, \(copy.attributeValue(at: i)) in the copy")
        }
        for (r, relationship) in entity.relationships.enumerated() {
            let target = entity.destinationNames[r]
            var expected = record.relationshipValue(at: r).targets.compactMap { keyMap.destinationKey(target, $0.primaryKey) }
            var found = copy.relationshipValue(at: r).targets.map(\.primaryKey)
            if !relationship.isOrdered { expected.sort(); found.sort() }
            guard expected == found else {
                throw difference(entity, "record \(key): '\(relationship.name)' holds \(expected) in the source (as copied keys), \(found) in the copy")
            }
        }
    }

    private static func difference(_ entity: EntitySchema, _ what: String) -> StrataError {
        StrataError(.corruptStore, "The copy differs from its source in '\(entity.name)': \(what).", entity: entity.name)
    }
}
