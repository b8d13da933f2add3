import Strata

extension StoreState {
    /// Checks that every relationship of a state read from files points at records it holds.
    ///
    /// A file backend calls it after loading, so a damaged or hand-edited store that names a missing
    /// record is refused instead of opening silently wrong. The one dangling reference the contract
    /// allows is a to-one whose target was deleted through a `noAction` rule on the other side; it
    /// must still name a key that was once given out.
    ///
    /// - Throws: `corruptStore` naming the entity, relationship, record and `file`.
    public func verifyReferences(file: String) throws {
        for entity in schema.entities {
            for (r, relationship) in entity.relationships.enumerated() {
                let destination = schema.entities[entity.destinationIndices[r]]
                let dangles = destination.relationships[entity.inverseIndices[r]].deleteRule == .noAction
                try forEachRecord(entity) { key, stored in
                    for target in stored.links[r].keys where record(destination, target) == nil {
                        if !relationship.isToMany, dangles, target > 0, target < nextPrimaryKey(destination) { continue }
                        throw StrataError(
                            .corruptStore, "Record \(key) of '\(entity.name)' names \(destination.name) \(target) in '\(relationship.name)', which the store does not hold; the files are damaged or were edited.",
                            entity: entity.name, properties: [relationship.name], identifiers: [identifier(entity, key)], file: file)
                    }
                    return true
                }
            }
        }
    }
}
