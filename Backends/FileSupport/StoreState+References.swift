@_spi(StrataEngine) import Strata

extension StoreState {
    /// Checks that every relationship of a state read from files points at records it holds.
    ///
    /// A file backend calls it after loading, so a damaged or hand-edited store that names a missing
    /// record is refused instead of opening silently wrong. The one dangling reference the contract
    /// allows is a to-one whose target was deleted through a `noAction` rule on the other side; it
    /// must still name a key that was once given out.
    ///
    /// - Throws: `corruptStore` naming the entity, relationship, record and `file`.
    @_spi(StrataEngine) public func verifyReferences(file: String) throws {
        for entity in schema.entities {
            for (r, relationship) in entity.relationships.enumerated() {
                let destination = schema.entities[entity.destinationIndices[r]]
                let dangles = destination.relationships[entity.inverseIndices[r]].deleteRule == .noAction
                let limit = nextPrimaryKey(destination)
                try forEachRecord(entity) { key, stored in
                    func check(_ target: Int64, mayDangle: Bool) throws {
                        guard !contains(destination, target), !(mayDangle && target > 0 && target < limit) else { return }
                        throw StrataError(
                            .corruptStore, "Record \(key) of '\(entity.name)' names \(destination.name) \(target) in '\(relationship.name)', which the store does not hold; the files are damaged or were edited.",
                            entity: entity.name, properties: [relationship.name], identifiers: [identifier(entity, key)], file: file)
                    }
                    switch stored.links[r] {
                    case .one(let target): if let target { try check(target, mayDangle: dangles) }
                    case .many(let targets): for target in targets { try check(target, mayDangle: false) }
                    }
                    return true
                }
            }
        }
    }
}
