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
        var groups: [UniqueKey: [Int64]] = [:]
        for (key, value) in moved where work.tables[e].records[key] != nil {
            groups[value, default: []].append(key)
        }
        for (value, members) in groups {
            // The record holding the value in `base`, if it still holds it and did not move.
            guard let holder = base.tables[e].uniqueIndexes[c][value], !members.contains(holder),
                let record = work.tables[e].records[holder], work.uniqueKey(entity, c, record) == value
            else { continue }
            groups[value]!.append(holder)
        }
        var best: (holder: Int64, offender: Int64)?
        for (value, members) in groups where members.count > 1 {
            let holder = members.first { key in
                base.tables[e].records[key].flatMap { base.uniqueKey(entity, c, $0) } == value
            } ?? members.min()!
            let offender = members.filter { $0 != holder }.min()!
            if best == nil || offender < best!.offender { best = (holder, offender) }
        }
        let names = entity.uniqueConstraints[c].map(entity.name(of:))
        guard let (holder, key) = best else {
            return StrataError(.uniqueConstraintViolation, "A record of '\(entity.name)' would share \(names.joined(separator: ", ")) with another.", entity: entity.name, properties: names)
        }
        return StrataError(.uniqueConstraintViolation, "\(clientIdentifier(e, key)) would share \(names.joined(separator: ", ")) with \(clientIdentifier(e, holder)), which already holds those values. Change the values or update that record instead.", entity: entity.name, properties: names, identifiers: [clientIdentifier(e, holder), clientIdentifier(e, key)])
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
