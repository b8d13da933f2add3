import Foundation
@_spi(StrataEngine) import Strata

/// Relationship changes as edge additions and removals on both sides, in request order.
extension SQLSaveTransaction {
    @inlinable package func touch(_ entity: Int, _ key: Int64) {
        let k = Key(entity: entity, key: key)
        let byOther = k != currentWriter
        // Children inserted together touch one parent over and over: once is enough.
        if k == lastTouched && (lastTouchedByOther || !byOther) { return }
        lastTouched = k
        lastTouchedByOther = byOther
        touched.insert(k)
        if byOther { touchedByOthers.insert(k) }
    }


    /// `SaveRules.requireExists`, answered from the save's inserts and known records first, then
    /// the table (a record found there is remembered as known).
    @inlinable package func requireExists(_ destination: EntitySchema, _ target: Int64, from w: Write, _ r: Int) throws {
        try SaveRules.requireExists(destination.index, target, referencedBy: w.entity, w.key, relationship: r, holds: {
            let k = Key(entity: destination.index, key: target)
            if (isInserted(k) || known.contains(k)) && !deletedSet.contains(k) { return true }
            guard try records.exists(destination, target) else { return false }
            known.insert(k)
            return true
        }, client: { client(Key(entity: $0, key: $1)) })
    }

    /// Sets a to-one column; a UNIQUE failure holds the value back until the end of the save.
    @inlinable package func setColumn(_ entity: EntitySchema, _ key: Int64, relationship r: Int, to value: Int64?, order: (String, Int64)? = nil) throws {
        guard case .column(let column, _) = mapping.tables[entity.index].relationships[r] else { return }
        columnWrites += 1
        var sets = "\(q(column)) = \(p(1))"
        var values: [SQLValue] = [value.map { .integer($0) } ?? .null]
        if let (orderColumn, position) = order {
            sets += ", \(q(orderColumn)) = \(p(2))"
            values.append(.integer(position))
        }
        if !start.uniqueProperties[entity.index].contains(.relationship(r)) {
            // No unique constraint covers the column: the UPDATE cannot be refused for a unique
            // value, and goes with the save's next statement (`queueWrite`).
            try queueWrite("UPDATE \(table(entity)) SET \(sets) WHERE \(q("_pk")) = \(p(values.count + 1))", values + [.integer(key)])
            touch(entity.index, key)
            return
        }
        do {
            try db.attempt { try db.prepare("UPDATE \(table(entity)) SET \(sets) WHERE \(q("_pk")) = \(p(values.count + 1))").run(values + [.integer(key)]) }
            // A later write of a held-back column wins: the value held earlier is stale.
            let k = Key(entity: entity.index, key: key)
            if intended[k]?[r] != nil {
                intended[k]?[r] = nil
                pending[k]?.remove(.relationship(r))
            }
        } catch where db.isUniqueFailure(error) {
            values[0] = .null
            try db.prepare("UPDATE \(table(entity)) SET \(sets) WHERE \(q("_pk")) = \(p(values.count + 1))").run(values + [.integer(key)])
            pending[Key(entity: entity.index, key: key), default: []].insert(.relationship(r))
            intended[Key(entity: entity.index, key: key), default: [:]][r] = value
        }
        touch(entity.index, key)
    }


    /// The targets relationship `r` of a record holds during the save, held-back to-one values
    /// included (a held row's column is NULL in the table until the end of the save).
    @inlinable package func currentTargets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        guard !intended.isEmpty else { return try records.targets(entity, key, r) }
        switch mapping.tables[entity.index].relationships[r] {
        case .column:
            if let held = intended[Key(entity: entity.index, key: key)]?[r] { return held.map { [$0] } ?? [] }
            return try records.targets(entity, key, r)
        case .inverseColumn(let table, _, _):
            var result = try records.targets(entity, key, r)
            let inverse = entity.inverseIndices[r]
            for (k, values) in intended.sorted(by: { $0.key.key < $1.key.key }) where k.entity == table {
                if case .some(.some(let target)) = values[inverse], target == key, !result.contains(k.key) { result.append(k.key) }
            }
            return result
        case .join:
            return try records.targets(entity, key, r)
        }
    }

    @inlinable package func column(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> Int64? {
        if let value = intended[Key(entity: entity.index, key: key)]?[r] { return value }
        if let written = insertedColumn(Key(entity: entity.index, key: key), r) { return written }
        return try records.targets(entity, key, r).first
    }

    /// The position after the last member of `owner`'s ordered list. Members whose to-one onto
    /// `owner` is held back (a unique collision mid-save: the column is NULL until the end of the
    /// save) already have their position: an append goes after them too, so the list keeps request
    /// order (an insert's child before a child an update adds later).
    @inlinable package func nextPosition(_ table: String, _ listColumn: String, _ orderColumn: String, _ owner: Int64) throws -> Int64 {
        var next = try db.prepare("SELECT COALESCE(MAX(\(q(orderColumn))), -1) + 1 FROM \(q(table)) WHERE \(q(listColumn)) = \(p(1))").rows([.integer(owner)]) { $0.int64(0) }.first ?? 0
        for (k, held) in intended where mapping.tables[k.entity].name == table {
            for (r, value) in held where value == owner {
                guard case .column(let column, let order?) = mapping.tables[k.entity].relationships[r], column == listColumn, order == orderColumn else { continue }
                let position = try db.prepare("SELECT \(q(orderColumn)) FROM \(q(table)) WHERE \(q("_pk")) = \(p(1))").rows([.integer(k.key)]) { $0.isNull(0) ? nil : $0.int64(0) }.first ?? nil
                if let position { next = max(next, position + 1) }
            }
        }
        return next
    }

    /// Adds `target` to relationship `r` of (`entity`, `key`), one side only, moving it away from a
    /// to-one's previous holder; in an ordered list at `position` if given, else at the end.
    @inlinable package func attach(_ entity: EntitySchema, _ key: Int64, _ r: Int, _ target: Int64, at position: Int64? = nil) throws {
        let destination = entities[entity.destinationIndices[r]]
        let inverse = entity.inverseIndices[r]
        switch mapping.tables[entity.index].relationships[r] {
        case .column(_, let order):
            let previous = try column(entity, key, r)
            guard previous != target else { return }
            if let previous { try detachColumnSide(destination, previous, inverse, from: key) }
            var place: (String, Int64)?
            if let order, case .inverseColumn(_, let listColumn, _) = mapping.tables[destination.index].relationships[inverse] {
                place = (order, try position ?? appendPosition(mapping.tables[entity.index].name, listColumn, order, target))
            }
            try setColumn(entity, key, relationship: r, to: target, order: place)
            touch(destination.index, target)
        case .inverseColumn:
            // Derived from the destination's column: attaching is setting that column.
            try attach(destination, target, inverse, key)
        case .join(let index, let mine, let other, let order):
            let join = mapping.joins[index]
            let otherOrder = join.left == mine ? join.rightOrder : join.leftOrder
            var columns = [mine, other]
            var values: [SQLValue] = [.integer(key), .integer(target)]
            if let order { columns.append(order); values.append(.integer(try appendPosition(join.name, mine, order, key))) }
            if let otherOrder { columns.append(otherOrder); values.append(.integer(try appendPosition(join.name, other, otherOrder, target))) }
            try queueWrite(Dialect.insertIgnoringDuplicate(into: join.name, columns: columns), values)
            if join.isSymmetric, target != key {
                // The mirror row: the target lists this record, at the end of its own list.
                var mirror: [SQLValue] = [.integer(target), .integer(key)]
                if let order { mirror.append(.integer(try appendPosition(join.name, mine, order, target))) }
                try queueWrite(Dialect.insertIgnoringDuplicate(into: join.name, columns: columns), mirror)
            }
            touch(entity.index, key)
            touch(destination.index, target)
        }
    }

    /// When (`entity`, `key`) stops pointing at `target` through a to-one, `target`'s inverse loses it.
    @inlinable package func detachColumnSide(_ destination: EntitySchema, _ target: Int64, _ inverse: Int, from key: Int64) throws {
        touch(destination.index, target)
        if case .column = mapping.tables[destination.index].relationships[inverse], try column(destination, target, inverse) == key {
            try setColumn(destination, target, relationship: inverse, to: nil)
        }
    }

    /// Removes the edge between (`entity`, `key`) and `target` on both sides.
    @inlinable package func unlink(_ entity: EntitySchema, _ key: Int64, _ r: Int, _ target: Int64) throws {
        let destination = entities[entity.destinationIndices[r]]
        let inverse = entity.inverseIndices[r]
        switch mapping.tables[entity.index].relationships[r] {
        case .column:
            if try column(entity, key, r) == target { try setColumn(entity, key, relationship: r, to: nil) }
            try detachColumnSide(destination, target, inverse, from: key)
        case .inverseColumn:
            try unlink(destination, target, inverse, key)
        case .join(let index, let mine, let other, _):
            try queueWrite("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = \(p(1)) AND \(q(other)) = \(p(2))", [.integer(key), .integer(target)])
            if mapping.joins[index].isSymmetric {
                try queueWrite("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = \(p(1)) AND \(q(other)) = \(p(2))", [.integer(target), .integer(key)])
            }
            touch(entity.index, key)
            touch(destination.index, target)
        }
    }

    @inlinable package func applyLink(_ w: Write, _ r: Int) throws {
        // A to-one the INSERT wrote itself holds what was sent.
        if w.isInsert && w.directWritten.contains(r) { return }
        let stored = stored(w, r)
        // Unchanged (the common case for an update) is found without building the sent list.
        if case .one(let target) = w.links[r] {
            if let target { if stored.count == 1 && stored.first == target { return } } else if stored.isEmpty { return }
        }
        let sent = w.links[r].keys
        guard !stored.elementsEqual(sent) else { return }
        let destination = entities[w.entity.destinationIndices[r]]
        let storedSet = Set(stored), sentSet = Set(sent)
        for target in stored where !sentSet.contains(target) { try unlink(w.entity, w.key, r, target) }
        for target in sent where !storedSet.contains(target) {
            try requireExists(destination, target, from: w, r)
            try attach(w.entity, w.key, r, target)
            if case .column = mapping.tables[w.entity.index].relationships[r] {
                // The target's to-one (one-to-one) points back, taking it from its previous holder.
                let inverse = w.entity.inverseIndices[r]
                if case .column = mapping.tables[destination.index].relationships[inverse] { try attach(destination, target, inverse, w.key) }
            }
        }
        if w.entity.relationships[r].isOrdered { try reorder(w.entity, w.key, r, as: sent) }
    }

    /// Puts an ordered list in the written order; members other writes of this save added follow.
    @inlinable package func reorder(_ entity: EntitySchema, _ key: Int64, _ r: Int, as written: [Int64]) throws {
        let known = insertedList(entity, key, r)
        var current = try known ?? records.targets(entity, key, r)
        if !intended.isEmpty, case .inverseColumn(let table, let column, let order?) = mapping.tables[entity.index].relationships[r] {
            // Members whose to-one onto this record is held back (NULL until the end of the save)
            // are members too, at the position they were given.
            let inverse = entity.inverseIndices[r]
            let held = intended.filter { $0.key.entity == table && $0.value[inverse] == .some(.some(key)) }.map(\.key.key)
            if !held.isEmpty {
                let marks = held.indices.map { p($0 + 2) }.joined(separator: ", ")
                current = try db.prepare("SELECT \(q("_pk")) FROM \(q(mapping.tables[table].name)) WHERE \(q(column)) = \(p(1)) OR \(q("_pk")) IN (\(marks)) ORDER BY \(q(order)), \(q("_pk"))").rows([.integer(key)] + held.map { .integer($0) }) { $0.int64(0) }
            }
        }
        let present = Set(current), listed = Set(written)
        let ordered = written.filter { present.contains($0) } + current.filter { !listed.contains($0) }
        guard ordered != current else { return }
        switch mapping.tables[entity.index].relationships[r] {
        case .inverseColumn(let table, let column, let order?):
            let sql = "UPDATE \(q(mapping.tables[table].name)) SET \(q(order)) = \(p(1)) WHERE \(q("_pk")) = \(p(2)) AND (\(q(column)) = \(p(3)) OR \(q(column)) IS NULL)"
            for (position, target) in ordered.enumerated() { try queueWrite(sql, [.integer(Int64(position)), .integer(target), .integer(key)]) }
            if known != nil {
                insertedMembers[ListKey(entity: entity.index, key: key, r: r)] = ordered
                lastInsertedList = nil
            }
        case .join(let index, let mine, let other, let order?):
            let sql = "UPDATE \(q(mapping.joins[index].name)) SET \(q(order)) = \(p(1)) WHERE \(q(mine)) = \(p(2)) AND \(q(other)) = \(p(3))"
            for (position, target) in ordered.enumerated() { try queueWrite(sql, [.integer(Int64(position)), .integer(key), .integer(target)]) }
        default:
            break
        }
        touch(entity.index, key)
    }
}
