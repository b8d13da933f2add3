import Foundation
@_spi(StrataEngine) import Strata

/// The end of a save: held-back unique values set again, required relationships and counts checked,
/// and the records the save changed beyond the request, for the result.
extension SQLSaveTransaction {
    /// Sets every held-back value again; returns the rows whose values still collide (their holds
    /// stay in `intended`, so validation sees them).
    @inlinable package func restorePending() throws -> [Key] {
        guard !pending.isEmpty else { return [] }
        var colliding: [Key] = []
        var values: [Key: [Value]] = [:]
        for w in writes where pending[Key(entity: w.entity.index, key: w.key)] != nil { values[Key(entity: w.entity.index, key: w.key)] = w.attributes }
        for (key, properties) in pending.sorted(by: { ($0.key.entity, $0.key.key) < ($1.key.entity, $1.key.key) }) where !deletedSet.contains(key) {
            let t = mapping.tables[key.entity]
            var sets: [String] = []
            var params: [SQLValue] = []
            for property in properties {
                switch property {
                case .attribute(let i):
                    guard let attributes = values[key] else { continue }
                    sets.append("\(q(t.attributeColumns[i])) = \(p(sets.count + 1))")
                    params.append(SQLValueCodec.encode(attributes[i]).0)
                case .relationship(let r):
                    guard case .column(let c, _) = t.relationships[r], let value = intended[key]?[r] else { continue }
                    sets.append("\(q(c)) = \(p(sets.count + 1))")
                    params.append(value.map { .integer($0) } ?? .null)
                }
            }
            guard !sets.isEmpty else { continue }
            do {
                try db.attempt { try db.prepare("UPDATE \(q(t.name)) SET \(sets.joined(separator: ", ")) WHERE \(q("_pk")) = \(p(params.count + 1))").run(params + [.integer(key.key)]) }
            } catch where db.isUniqueFailure(error) {
                colliding.append(key)
                continue
            }
            intended[key] = nil
        }
        return colliding
    }

    /// The violation a row's values cause, naming the record that already holds them.
    @inlinable package func uniqueViolation(_ entity: EntitySchema, _ key: Int64) throws -> StrataError {
        let t = mapping.tables[entity.index]
        let written = writesByKey()
        for (c, refs) in entity.uniqueConstraints.enumerated() {
            let columns = refs.map { mapping.column(of: $0, in: t) }
            guard let values = try finalValues(entity, key, refs, written) else { continue }
            let conditions = columns.enumerated().map { "\(q($1)) = \(p($0 + 1))" }
            let holders = try db.prepare("SELECT \(q("_pk")) FROM \(q(t.name)) WHERE \(conditions.joined(separator: " AND ")) AND \(q("_pk")) != \(p(values.count + 1))").rows(values + [.integer(key)]) { $0.int64(0) }
            if let holder = holders.first {
                return SaveRules.uniqueViolation(entity, constraint: c, holder: client(Key(entity: entity.index, key: holder)), offender: client(Key(entity: entity.index, key: key)))
            }
        }
        return SaveRules.unnamedUniqueViolation(entity, constraint: nil)
    }

    @inlinable package func validate() throws {
        let needsCheck = start.needsRelationshipCheck
        guard needsCheck.contains(true) else { return }
        var candidates: [SaveRuleRecord] = []
        for w in writes where needsCheck[w.entity.index] { candidates.append(SaveRuleRecord(entity: w.entity.index, key: w.key)) }
        for k in touched where needsCheck[k.entity] { candidates.append(SaveRuleRecord(entity: k.entity, key: k.key)) }
        var host = self
        try SaveRules.checkRelationships(candidates, entities, host: &host)
    }

    /// The records the save changed beyond what the request sent, to report in the result.
    @inlinable package func changedRecords() throws -> [DefaultSnapshot] {
        guard !touched.isEmpty || !refreshed.isEmpty else { return [] }
        var result: [DefaultSnapshot] = []
        var updated = [Key: Write]()
        for w in writes where !w.isInsert { updated[Key(entity: w.entity.index, key: w.key)] = w }
        func written(_ k: Key) -> Write? {
            if let w = updated[k] { return w }
            guard isInserted(k), let first = firstInserted[k.entity] else { return nil }
            return insertedWrite(k.entity, Int(k.key - first))
        }
        // Every touched record, its writer included (a record made its own parent changed itself).
        for key in touched.union(refreshed) where !deletedSet.contains(key) {
            let entity = entities[key.entity]
            if let w = written(key), !refreshed.contains(key), let now = insertedTargets(key), same(entity, w.links, now) {
                // An inserted record whose relationships are as sent, known without reading it.
                continue
            }
            guard let snapshot = try records.snapshot(entity, key.key, knownTargets: { r in insertedList(entity, key.key, r) }) else { continue }
            if let w = written(key), !refreshed.contains(key) {
                if same(entity, w.links, snapshot.relationships.map { $0.targets.map(\.primaryKey) }) { continue }
            }
            result.append(snapshot)
        }
        return result
    }

    /// Whether a record's relationships `now` are what its write sent (an unordered to-many as a set).
    @inlinable package func same(_ entity: EntitySchema, _ links: [SQLLink], _ now: [[Int64]]) -> Bool {
        zip(entity.relationships, zip(links, now)).allSatisfy { r, pair in
            let sent = pair.0.keys
            return r.isToMany && !r.isOrdered ? Set(sent) == Set(pair.1) : sent == pair.1
        }
    }
}
