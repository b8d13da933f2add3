/// The parts of a save that decide *which* fault and *which* records a failed save reports, and which
/// records the result lists as changed. The contract fixes both (docs/store-contract.md, "Which fault
/// a save reports"), so every backend reports the same thing for the same request.
extension SaveTransaction {
    /// The unique violation of constraint `c` of `entity` in the state after the save's changes,
    /// chosen as the contract says: among the groups of records sharing the constraint's values, the
    /// one whose offending record has the lowest key; the record collided with is the member that
    /// held the values before the save (else the lowest key), the offender the lowest other key.
    ///
    /// `moved` are the records whose values for the constraint this save set (inserted or changed).
    /// Every group of records sharing values holds at least one of them — the others keep the values
    /// they had in `base`, where each value had one holder — so the groups are built from `moved` and
    /// those holders: a failed save costs O(change), not a scan of the table.
    func uniqueViolation(_ entity: EntitySchema, _ c: Int, moved: [(key: Int64, new: UniqueKey)]) -> StrataError {
        let e = entity.index
        var groupOf: [UniqueKey: Int] = [:]
        var values: [UniqueKey] = []
        var groups: [[Int64]] = []
        for (key, value) in moved where work.tables[e].records[key] != nil {
            if let g = groupOf[value] { groups[g].append(key) } else {
                groupOf[value] = groups.count
                values.append(value)
                groups.append([key])
            }
        }
        for (g, value) in values.enumerated() {
            // The record holding the value in `base`, if it still holds it and did not move.
            guard let holder = base.tables[e].uniqueIndexes[c][value], !groups[g].contains(holder),
                let record = work.tables[e].records[holder], work.uniqueKey(entity, c, record) == value
            else { continue }
            groups[g].append(holder)
        }
        return SaveRules.uniqueViolation(entity, constraint: c, groups: groups, heldBefore: { key, g in
            base.tables[e].records[key].flatMap { base.uniqueKey(entity, c, $0) } == values[g]
        }, client: { clientIdentifier(e, $0) })
    }

    /// Whether a written record's relationships after the save differ from what the request sent;
    /// unordered lists are sets, so a list that merely comes back in another order is no change.
    func differs(_ entity: EntitySchema, _ now: [Link], _ sent: [Link]) -> Bool {
        guard now != sent else { return false }
        for (r, relationship) in entity.relationships.enumerated() where now[r] != sent[r] {
            guard relationship.isToMany, !relationship.isOrdered else { return true }
            if now[r].keys.count != sent[r].keys.count || Set(now[r].keys) != Set(sent[r].keys) { return true }
        }
        return false
    }
}
