extension StoreState {
    /// Checks the whole state (under `STRATA_INTERNAL_CHECKS`; nothing otherwise); the shared engine
    /// runs it after every save, before the backend persists the state.
    ///
    /// - Every table's records (`PagedArray._checkInvariants()`) and unique indexes
    ///   (`ShardedDictionary._checkInvariants()`) are laid out as their types require.
    /// - Every record has one value per attribute and one link of the right shape per relationship,
    ///   and no key at or past its table's `nextPrimaryKey`.
    /// - Both sides of every relationship agree: when record A's relationship names B and B exists, B's
    ///   inverse names A (a to-one target that does not exist is a `noAction` delete's dangling
    ///   reference; a to-many never lists a record that does not exist).
    /// - Every unique index matches the records: each record whose constraint values are all set is
    ///   its index's holder of those values, and the index holds nothing else.
    func _checkInvariants() {
        #if STRATA_INTERNAL_CHECKS
        for entity in schema.entities {
            let table = tables[entity.index]
            table.records._checkInvariants()
            for index in table.uniqueIndexes { index._checkInvariants() }
            var indexed = Array(repeating: 0, count: entity.uniqueConstraints.count)
            table.records.forEach { key, record in
                internalInvariant(key < table.nextPrimaryKey, "\(entity.name) \(key) at or past the next key \(table.nextPrimaryKey)")
                internalInvariant(record.attributes.count == entity.attributes.count, "\(entity.name) \(key): \(record.attributes.count) attribute values")
                internalInvariant(record.links.count == entity.relationships.count, "\(entity.name) \(key): \(record.links.count) links")
                for (r, link) in record.links.enumerated() {
                    let relationship = entity.relationships[r]
                    if case .many = link { internalInvariant(relationship.isToMany, "\(entity.name) \(key).\(relationship.name): a list in a to-one") }
                    else { internalInvariant(!relationship.isToMany, "\(entity.name) \(key).\(relationship.name): one target in a to-many") }
                    let destination = entity.destinationIndices[r]
                    let inverse = entity.inverseIndices[r]
                    for target in link.keys {
                        guard let other = tables[destination].records[target] else {
                            // Only a to-one may dangle (a noAction delete); a to-many never lists a deleted record.
                            internalInvariant(!relationship.isToMany, "\(entity.name) \(key).\(relationship.name) lists \(relationship.destination) \(target), which does not exist")
                            continue
                        }
                        internalInvariant(
                            other.links[inverse].keys.contains(key),
                            "\(entity.name) \(key).\(relationship.name) names \(relationship.destination) \(target), whose \(relationship.inverse) does not name it back")
                    }
                }
                for c in entity.uniqueConstraints.indices {
                    guard let unique = uniqueKey(entity, c, record) else { continue }
                    indexed[c] += 1
                    internalInvariant(table.uniqueIndexes[c][unique] == key, "\(entity.name) \(key): unique constraint \(c) indexes \(table.uniqueIndexes[c][unique].map(String.init) ?? "nothing") for its values")
                }
                return true
            }
            for c in entity.uniqueConstraints.indices {
                internalInvariant(table.uniqueIndexes[c].count == indexed[c], "\(entity.name): unique constraint \(c) holds \(table.uniqueIndexes[c].count) keys for \(indexed[c]) records")
            }
        }
        #endif
    }
}
