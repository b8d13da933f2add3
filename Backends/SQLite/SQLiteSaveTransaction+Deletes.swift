import CSQLite
import Foundation
import Strata

/// Deletes with their rules (cascade, nullify, deny, noAction), computed by the save itself.
extension SQLiteSaveTransaction {
    func applyDeletes<S: DataStoreSnapshot>(_ requested: [S]) throws {
        var queue: [Key] = []
        for snapshot in requested {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: schema)
            let key = try SaveValidation.existingKey(id, of: entity, verb: "delete", storeIdentifier: storeIdentifier) { k in
                try !isInserted(Key(entity: entity.index, key: k)) && records.exists(entity, k)
            }
            if deletedSet.insert(Key(entity: entity.index, key: key)).inserted { queue.append(Key(entity: entity.index, key: key)) }
        }
        var next = 0
        while next < queue.count {
            let victim = queue[next]
            next += 1
            let entity = schema.entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                let destination = schema.entities[entity.destinationIndices[r]]
                for target in try currentTargets(entity, victim.key, r) where try records.exists(destination, target) {
                    if deletedSet.insert(Key(entity: destination.index, key: target)).inserted { queue.append(Key(entity: destination.index, key: target)) }
                }
            }
        }
        // Rules apply in (entity, key) order, so a denied delete names the same record everywhere.
        queue.sort { ($0.entity, $0.key) < ($1.entity, $1.key) }
        for victim in queue {
            let entity = schema.entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let destination = schema.entities[entity.destinationIndices[r]]
                let inverse = entity.inverseIndices[r]
                var survivors = try currentTargets(entity, victim.key, r).filter {
                    try !deletedSet.contains(Key(entity: destination.index, key: $0)) && records.exists(destination, $0)
                }
                guard !survivors.isEmpty else { continue }
                if relationship.deleteRule == .deny { survivors.sort() }
                switch relationship.deleteRule {
                case .deny:
                    throw StrataError(.deleteDenied, "Cannot delete \(client(victim)): its '\(relationship.name)' still holds \(survivors.count) record(s) and the delete rule is deny. Delete or detach them first.", entity: entity.name, properties: [relationship.name], identifiers: [client(victim)] + survivors.map { client(Key(entity: destination.index, key: $0)) })
                case .nullify, .cascade:
                    for target in survivors { try detachForDelete(destination, target, inverse, victim.key) }
                case .noAction:
                    // To-one references dangle by request; lists never show a deleted record.
                    for target in survivors where destination.relationshipIsToMany[inverse] {
                        try detachForDelete(destination, target, inverse, victim.key)
                    }
                }
            }
        }
        if queue.count > 1 { try cutCascadeColumns(queue) }
        for victim in queue {
            let entity = schema.entities[victim.entity]
            for (r, storage) in mapping.tables[entity.index].relationships.enumerated() {
                if case .join(let index, let mine, _, _) = storage {
                    _ = r
                    try db.prepare("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = ?").run([.integer(victim.key)])
                }
            }
            try db.prepare("DELETE FROM \(table(entity)) WHERE \(q("_pk")) = ?").run([.integer(victim.key)])
        }
        deleted = queue
    }

    /// Empties the victims' columns whose foreign key deletes on cascade, before any victim row goes.
    ///
    /// The cascade was computed above, iteratively; left to SQLite, deleting the head of a chain
    /// would delete the next row from inside the foreign-key action, and so on, one trigger level
    /// per record, failing past SQLite's limit of 1,000 levels ("too many levels of trigger
    /// recursion"). With these columns empty no action fires: every victim is deleted by its own
    /// statement, whatever the length of the chain or cycle.
    func cutCascadeColumns(_ victims: [Key]) throws {
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
            try db.prepare("UPDATE \(table(entity)) SET \(assignments) WHERE \(q("_pk")) = ?").run([.integer(victim.key)])
        }
    }

    /// The target's inverse side forgets the deleted record.
    func detachForDelete(_ destination: EntitySchema, _ target: Int64, _ inverse: Int, _ victim: Int64) throws {
        touch(destination.index, target)
        switch mapping.tables[destination.index].relationships[inverse] {
        case .column:
            if try column(destination, target, inverse) == victim { try setColumn(destination, target, relationship: inverse, to: nil) }
        case .inverseColumn:
            break  // derived from the victim's own column, which goes with its row
        case .join(let index, let mine, let other, _):
            try db.prepare("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = ? AND \(q(other)) = ?").run([.integer(target), .integer(victim)])
        }
    }
}
