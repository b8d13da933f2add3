/// A snapshot's relationship values resolved into links, the same on every backend (the rules over
/// the whole save — deletes, counts, unique constraints — are `SaveRules`').
extension SaveValidation {
    /// Resolves a snapshot's relationship values into targets' primary keys, checking each value's
    /// shape; a to-many that names a target twice keeps the first occurrence.
    ///
    /// - Parameter resolve: turns one reference of relationship `r` into the destination's key
    ///   (usually `referenceKey`, with a cache in front).
    /// - Throws: `typeMismatch` for a to-one given a list or the reverse, or what `resolve` throws.
    @_spi(StrataEngine) public static func links(_ relationships: [RelationshipValue], of entity: EntitySchema, identifier: PersistentIdentifier, resolve: (PersistentIdentifier, Int) throws -> Int64) throws -> [Link] {
        var links: [Link] = []
        links.reserveCapacity(relationships.count)
        for r in entity.relationships.indices { links.append(try link(relationships[r], of: entity, relationship: r, identifier: identifier, resolve: resolve)) }
        return links
    }

    /// Resolves one relationship value (`links` for a single relationship `r`).
    @_spi(StrataEngine) public static func link(_ value: RelationshipValue, of entity: EntitySchema, relationship r: Int, identifier: PersistentIdentifier, resolve: (PersistentIdentifier, Int) throws -> Int64) throws -> Link {
        switch (value, entity.relationshipIsToMany[r]) {
        case (.toOne(nil), false):
            return .one(nil)
        case (.toOne(let target?), false):
            return .one(try resolve(target, r))
        case (.toMany(let targets), true):
            var keys: [Int64] = []
            keys.reserveCapacity(targets.count)
            for t in targets { keys.append(try resolve(t, r)) }
            return .many(deduplicated(keys))
        default:
            throw shapeMismatch(entity, r, identifier: identifier)
        }
    }
}
