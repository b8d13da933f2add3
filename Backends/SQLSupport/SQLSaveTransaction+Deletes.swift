import Foundation
@_spi(StrataEngine) import Strata

/// Deletes: the rules (cascade, nullify, deny, noAction) are `SaveRules.applyDeleteRules`'; the layer
/// answers its questions (`SQLSaveTransaction+Rules.swift`) and removes the rows.
extension SQLSaveTransaction {
    @inlinable package func applyDeletes<S: DataStoreSnapshot>(_ snapshots: [S]) throws {
        var requested: [SaveRuleRecord] = []
        for snapshot in snapshots {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: schema)
            let key = try SaveValidation.existingKey(id, of: entity, verb: "delete", storeIdentifier: storeIdentifier) { k in
                try !isInserted(Key(entity: entity.index, key: k)) && records.exists(entity, k)
            }
            requested.append(SaveRuleRecord(entity: entity.index, key: key))
            deletedSet.insert(Key(entity: entity.index, key: key))
        }
        guard !requested.isEmpty else { return }
        var host = self
        let queue = try SaveRules.applyDeleteRules(requested, schema.entities, host: &host).map { Key(entity: $0.entity, key: $0.key) }
        deletedSet.formUnion(queue)
        if queue.count > 1 { try cutCascadeColumns(queue) }
        for victim in queue {
            let entity = schema.entities[victim.entity]
            for (r, storage) in mapping.tables[entity.index].relationships.enumerated() {
                if case .join(let index, let mine, _, _) = storage {
                    _ = r
                    try db.prepare("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = \(p(1))").run([.integer(victim.key)])
                }
            }
            try db.prepare("DELETE FROM \(table(entity)) WHERE \(q("_pk")) = \(p(1))").run([.integer(victim.key)])
        }
        deleted = queue
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
            let entity = schema.entities[victim.entity]
            var columns: [String] = []
            for (r, storage) in mapping.tables[entity.index].relationships.enumerated() {
                guard case .column(let column, _) = storage else { continue }
                let destination = schema.entities[entity.destinationIndices[r]]
                if destination.relationships[entity.inverseIndices[r]].deleteRule == .cascade { columns.append(column) }
            }
            guard !columns.isEmpty else { continue }
            let assignments = columns.map { "\(q($0)) = NULL" }.joined(separator: ", ")
            try db.prepare("UPDATE \(table(entity)) SET \(assignments) WHERE \(q("_pk")) = \(p(1))").run([.integer(victim.key)])
        }
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
