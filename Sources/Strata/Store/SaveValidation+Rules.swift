/// The rule checks and errors of a save that every backend with its own storage shares, so a unique
/// violation, a denied delete or a count violation reads the same whichever backend reports it.
extension SaveValidation {
    /// Resolves a snapshot's relationship values into targets' primary keys, checking each value's
    /// shape; a to-many that names a target twice keeps the first occurrence.
    ///
    /// - Parameter resolve: turns one reference of relationship `r` into the destination's key
    ///   (usually `referenceKey`, with a cache in front).
    /// - Throws: `typeMismatch` for a to-one given a list or the reverse, or what `resolve` throws.
    public static func links(_ relationships: [RelationshipValue], of entity: EntitySchema, identifier: PersistentIdentifier, resolve: (PersistentIdentifier, Int) throws -> Int64) throws -> [Link] {
        var links: [Link] = []
        links.reserveCapacity(relationships.count)
        for r in entity.relationships.indices { links.append(try link(relationships[r], of: entity, relationship: r, identifier: identifier, resolve: resolve)) }
        return links
    }

    /// Resolves one relationship value (`links` for a single relationship `r`).
    public static func link(_ value: RelationshipValue, of entity: EntitySchema, relationship r: Int, identifier: PersistentIdentifier, resolve: (PersistentIdentifier, Int) throws -> Int64) throws -> Link {
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

    /// The error for a record that would share the values of unique constraint `constraint` with
    /// `holder`: the holder first, then the offender, as the contract asks.
    public static func uniqueViolation(_ entity: EntitySchema, constraint: Int, holder: PersistentIdentifier, offender: PersistentIdentifier) -> StrataError {
        let names = entity.uniqueConstraints[constraint].map(entity.name(of:))
        return StrataError(.uniqueConstraintViolation, "\(offender) would share \(names.joined(separator: ", ")) with \(holder), which already holds those values. Change the values or update that record instead.", entity: entity.name, properties: names, identifiers: [holder, offender])
    }

    /// The error for deleting `victim` while its deny relationship `relationship` still holds `survivors`.
    public static func deleteDenied(_ entity: EntitySchema, relationship: Int, victim: PersistentIdentifier, survivors: [PersistentIdentifier]) -> StrataError {
        let name = entity.relationships[relationship].name
        return StrataError(.deleteDenied, "Cannot delete \(victim): its '\(name)' still holds \(survivors.count) record(s) and the delete rule is deny. Delete or detach them first.", entity: entity.name, properties: [name], identifiers: [victim] + survivors)
    }

    /// Whether relationship `r` of `entity` needs a check after a save (required to-one, bounded to-many).
    public static func needsCountCheck(_ entity: EntitySchema, _ r: Int) -> Bool {
        let relationship = entity.relationships[r]
        return (!relationship.isToMany && !relationship.isOptional) || relationship.minCount != nil || relationship.maxCount != nil
    }

    /// Checks that relationship `r` of a surviving record holding `count` targets keeps its rules.
    ///
    /// - Throws: `missingRequiredRelationship` for an empty required to-one, `relationshipCountViolation`
    ///   for a to-many outside its bounds.
    public static func checkCount(_ entity: EntitySchema, _ r: Int, count: Int, identifier: PersistentIdentifier) throws {
        let relationship = entity.relationships[r]
        if !relationship.isToMany {
            guard count == 0, !relationship.isOptional else { return }
            throw StrataError(.missingRequiredRelationship, "'\(relationship.name)' is required; give \(identifier) a target.", entity: entity.name, properties: [relationship.name], identifiers: [identifier])
        }
        if let lo = relationship.minCount, count < lo {
            throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(identifier) would hold \(count) record(s); at least \(lo) are required.", entity: entity.name, properties: [relationship.name], identifiers: [identifier])
        }
        if let hi = relationship.maxCount, count > hi {
            throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(identifier) would hold \(count) record(s); at most \(hi) are allowed.", entity: entity.name, properties: [relationship.name], identifiers: [identifier])
        }
    }
}
