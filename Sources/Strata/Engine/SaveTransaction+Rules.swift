/// The shared engine's answers to the save rules (`SaveRules`): its records are the save's working
/// state, `work`, so the rules see every write of the save applied.
extension SaveTransaction: SaveRuleHost {
    func recordExists(_ entity: Int, _ key: Int64) -> Bool {
        work.tables[entity].records.contains(key)
    }

    func currentTargets(_ entity: Int, _ key: Int64, _ r: Int) -> [Int64] {
        link(entity, key, r)?.keys ?? []
    }

    func targetCount(_ entity: Int, _ key: Int64, _ r: Int) -> Int {
        switch link(entity, key, r) {
        case .one(let k)?: k == nil ? 0 : 1
        case .many(let ks)?: ks.count
        case nil: 0
        }
    }

    mutating func forget(_ victim: Int64, in entity: Int, _ key: Int64, _ r: Int) {
        detach(entity, key, r, from: victim)
    }
}
