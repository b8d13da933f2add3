import Foundation
@_spi(StrataEngine) import Strata

/// Deletes: the rules (cascade, nullify, deny, noAction) are the store contract's (§3, written once in
/// `SaveRules.applyDeleteRules`). A SQL store applies them a set at a time
/// (`SQLSaveTransaction+DeleteSets.swift`): a cascade's victims found level by level with one
/// statement per (entity, relationship), each entity's rows removed with one statement. Only a
/// save holding a to-one value back (a unique collision mid-save, `intended`), whose tables do not
/// yet say what the save's records hold, asks `SaveRules` record by record (`SQLSaveTransaction+Rules.swift`).
extension SQLSaveTransaction {
    @inlinable package func applyDeletes<S: DataStoreSnapshot>(_ snapshots: [S]) throws {
        guard !snapshots.isEmpty else { return }
        // The requested records' existence, one query per entity when the request deletes several.
        let stored = snapshots.count > 1 ? try storedKeys(of: snapshots.map { ($0.persistentIdentifier, $0.entity) }) : nil
        var requested: [Key] = []
        for snapshot in snapshots {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: entities)
            let key = try SaveValidation.existingKey(id, of: entity, verb: "delete", storeIdentifier: storeIdentifier) { k in
                guard !isInserted(Key(entity: entity.index, key: k)) else { return false }
                if let stored { return stored[entity.index].contains(k) }
                return try records.exists(entity, k)
            }
            if deletedSet.insert(Key(entity: entity.index, key: key)).inserted { requested.append(Key(entity: entity.index, key: key)) }
        }
        if intended.isEmpty {
            deleted = try deleteSets(requested)
            return
        }
        var host = self
        let queue = try SaveRules.applyDeleteRules(requested.map { SaveRuleRecord(entity: $0.entity, key: $0.key) }, entities, host: &host).map { Key(entity: $0.entity, key: $0.key) }
        deletedSet.formUnion(queue)
        if queue.count > 1 { try cutCascadeColumns(queue) }
        for victim in queue {
            let entity = entities[victim.entity]
            for storage in mapping.tables[entity.index].relationships {
                if case .join(let index, let mine, _, _) = storage {
                    try db.prepare("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = \(p(1))").run([.integer(victim.key)])
                }
            }
            try db.prepare("DELETE FROM \(table(entity)) WHERE \(q("_pk")) = \(p(1))").run([.integer(victim.key)])
        }
        deleted = queue
    }

    /// Per entity, which of the permanent keys `snapshots` name are rows of its table now: one
    /// query per entity named. A snapshot whose entity or identifier is not valid is left to the
    /// checks that follow, which report it.
    ///
    /// Not generic, and not inlined into a backend: Swift 6.3.1's optimizer crashed (signal 11,
    /// then 6) emitting this function's specialization for SQLite's own snapshot type in a release
    /// build of StrataSQLite.
    @usableFromInline package func storedKeys(of snapshots: [(PersistentIdentifier, EntitySchema)]) throws -> [Set<Int64>] {
        var asked = [[Int64]](repeating: [], count: entities.count)
        for (id, given) in snapshots {
            guard !id.isTemporary, id.storeIdentifier == storeIdentifier,
                  let entity = try? SaveValidation.entity(of: id, given: given, in: entities) else { continue }
            asked[entity.index].append(id.primaryKey)
        }
        var stored = [Set<Int64>](repeating: [], count: entities.count)
        for e in asked.indices where !asked[e].isEmpty {
            stored[e] = Set(try keys("SELECT \(q("_pk")) FROM \(q(mapping.tables[e].name))", where: "_pk", in: asked[e]))
        }
        return stored
    }

    /// Empties the victims' columns whose foreign key deletes on cascade, before any victim row goes.
    ///
    /// The cascade was computed above, iteratively; left to the database (SQLite), deleting the head of a chain
    /// would delete the next row from inside the foreign-key action, and so on, one trigger level
    /// per record, failing past SQLite's limit of 1,000 levels ("too many levels of trigger
    /// recursion"). With these columns empty no action fires: every victim is deleted by its own
    /// statement, whatever the length of the chain or cycle.
    @inlinable package func cutCascadeColumns(_ victims: [Key]) throws {
        for victim in victims {
            let columns = cascadeColumns(victim.entity)
            guard !columns.isEmpty else { continue }
            let assignments = columns.map { "\(q($0)) = NULL" }.joined(separator: ", ")
            try db.prepare("UPDATE \(table(entities[victim.entity])) SET \(assignments) WHERE \(q("_pk")) = \(p(1))").run([.integer(victim.key)])
        }
    }

    /// The to-one columns of `entity`'s table whose foreign key deletes on cascade (the inverse's
    /// delete rule is cascade).
    @inlinable package func cascadeColumns(_ entity: Int) -> [String] {
        let e = entities[entity]
        var columns: [String] = []
        for (r, storage) in mapping.tables[entity].relationships.enumerated() {
            guard case .column(let column, _) = storage else { continue }
            if entities[e.destinationIndices[r]].relationships[e.inverseIndices[r]].deleteRule == .cascade { columns.append(column) }
        }
        return columns
    }

    /// The target's inverse side forgets the deleted record.
    @inlinable package func detachForDelete(_ destination: EntitySchema, _ target: Int64, _ inverse: Int, _ victim: Int64) throws {
        touch(destination.index, target)
        switch mapping.tables[destination.index].relationships[inverse] {
        case .column:
            if try column(destination, target, inverse) == victim { try setColumn(destination, target, relationship: inverse, to: nil) }
        case .inverseColumn:
            break  // derived from the victim's own column, which goes with its row
        case .join(let index, let mine, let other, _):
            try db.prepare("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = \(p(1)) AND \(q(other)) = \(p(2))").run([.integer(target), .integer(victim)])
        }
    }
}
