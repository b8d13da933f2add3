@_spi(StrataEngine) import Strata

/// LMDB's answers to the save rules (`SaveRules`): records as the save holds them (inserts, the
/// record cache), lists as changed in place in their databases.
extension LMDBSaveTransaction: SaveRuleHost {
    func recordExists(_ entity: Int, _ key: Int64) throws -> Bool {
        try exists(entity, key)
    }

    func currentTargets(_ entity: Int, _ key: Int64, _ r: Int) throws -> [Int64] {
        try targets(entity, key, r)
    }

    func targetCount(_ entity: Int, _ key: Int64, _ r: Int) throws -> Int {
        if entities[entity].relationshipIsToMany[r] { return try records.count(entities[entity], key, r) }
        return try load(entity, key)?.toOne[r] == nil ? 0 : 1
    }

    func forget(_ victim: Int64, in entity: Int, _ key: Int64, _ r: Int) throws {
        try detach(entity, key, r, from: victim)
    }

    func clientIdentifier(_ entity: Int, _ key: Int64) -> PersistentIdentifier {
        client(entity, key)
    }
}
