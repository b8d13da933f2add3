import Foundation
@_spi(StrataEngine) import Strata

/// Which unique violation a failed save reports: the contract fixes it (docs/store-contract.md,
/// "Which fault a save reports"), so a SQL backend names the same records as the shared engine although
/// its table only tells which row failed to take its values back at the end of the save.
extension SQLSaveTransaction {
    /// The violation the contract names, given the rows whose held-back unique values still collide:
    /// the first entity (schema order) and constraint (declaration order) with records sharing
    /// values; among those groups the one whose offender has the lowest key; the record collided
    /// with is the member that held the values before the save (else the lowest key).
    @inlinable package func uniqueFault(_ colliding: [Key]) throws -> StrataError {
        let byEntity = Dictionary(grouping: colliding, by: \.entity)
        let written = writesByKey()
        for entity in entities {
            guard let rows = byEntity[entity.index]?.sorted(by: { $0.key < $1.key }) else { continue }
            let t = mapping.tables[entity.index]
            for (c, refs) in entity.uniqueConstraints.enumerated() {
                let columns = refs.map { mapping.column(of: $0, in: t) }
                let held = try rows.map { ($0.key, try finalValues(entity, $0.key, refs, written)) }
                var groups: [[SQLValue]: Set<Int64>] = [:]
                for (key, values) in held {
                    guard let values else { continue }
                    let condition = columns.enumerated().map { "\(q($1)) = \(p($0 + 1))" }.joined(separator: " AND ")
                    let others = try db.prepare("SELECT \(q("_pk")) FROM \(q(t.name)) WHERE \(condition)").rows(values) { $0.int64(0) }
                    groups[values, default: []].formUnion(others + [key])
                }
                let pairs = Array(groups)
                let members = pairs.map { Array($0.value) }, values = pairs.map(\.key)
                let condition = columns.map(q).joined(separator: ", ")
                guard let (holder, key) = try SaveRules.uniqueCollision(members, heldBefore: { key, g in
                    try committed("SELECT \(condition) FROM \(q(t.name)) WHERE \(q("_pk")) = \(p(1))", [.integer(key)]) == values[g]
                }) else { continue }
                return SaveRules.uniqueViolation(entity, constraint: c, holder: client(Key(entity: entity.index, key: holder)), offender: client(Key(entity: entity.index, key: key)))
            }
        }
        let first = colliding.min { ($0.entity, $0.key) < ($1.entity, $1.key) }!
        return try uniqueViolation(entities[first.entity], first.key)
    }

    /// The values of constraint `refs` that row `key` has once the save's writes are applied (held-back
    /// to-one values included), or `nil` if any is `nil` (which never collides). Written attributes
    /// come from the request; the others from the row, through the kept SELECT by key.
    @inlinable package func finalValues(_ entity: EntitySchema, _ key: Int64, _ refs: [PropertyReference], _ written: [Key: Write]) throws -> [SQLValue]? {
        var values: [SQLValue] = []
        values.reserveCapacity(refs.count)
        for ref in refs {
            let value: SQLValue
            switch ref {
            case .attribute(let i):
                if let w = written[Key(entity: entity.index, key: key)] {
                    value = SQLValueCodec.encode(w.attributes[i]).0
                } else {
                    value = try records.storedAttribute(entity, key, i) ?? .null
                }
            case .relationship(let r):
                value = try currentTargets(entity, key, r).first.map { .integer($0) } ?? .null
            }
            if value == .null { return nil }
            values.append(value)
        }
        return values
    }

    /// The save's writes by record; the first write of a record wins (a record is written once).
    @inlinable package func writesByKey() -> [Key: Write] {
        Dictionary(writes.map { (Key(entity: $0.entity.index, key: $0.key), $0) }, uniquingKeysWith: { a, _ in a })
    }
}
