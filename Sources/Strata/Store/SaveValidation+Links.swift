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
        // One allocation of the final size (one relationship: an array literal); `reserveCapacity`
        // and `append` went through the array's growth path for every inserted record (limit:
        // Benchmarks/Thresholds/lmdb-insert.txt).
        let count = entity.relationships.count
        if count == 1 { return [try link(relationships[0], of: entity, relationship: 0, identifier: identifier, resolve: resolve)] }
        return try [Link](unsafeUninitializedCapacity: count) { buffer, initialized in
            for r in 0..<count {
                (buffer.baseAddress! + r).initialize(to: try link(relationships[r], of: entity, relationship: r, identifier: identifier, resolve: resolve))
                initialized = r + 1
            }
        }
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
