@_spi(StrataEngine) import Strata

/// The layer's answers to the save rules (`SaveRules`): the rows as the save has written them so far,
/// held-back to-one values included (`currentTargets`).
extension SQLSaveTransaction: SaveRuleHost {
    @inlinable package func recordExists(_ entity: Int, _ key: Int64) throws -> Bool {
        try !deletedSet.contains(Key(entity: entity, key: key)) && records.exists(entities[entity], key)
    }

    @inlinable package func currentTargets(_ entity: Int, _ key: Int64, _ r: Int) throws -> [Int64] {
        try currentTargets(entities[entity], key, r)
    }

    @inlinable package func forget(_ victim: Int64, in entity: Int, _ key: Int64, _ r: Int) throws {
        try detachForDelete(entities[entity], key, r, victim)
    }

    @inlinable package func clientIdentifier(_ entity: Int, _ key: Int64) -> PersistentIdentifier {
        client(Key(entity: entity, key: key))
    }
}
