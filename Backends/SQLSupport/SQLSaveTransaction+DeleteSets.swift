@_spi(StrataEngine) import Strata

/// A save's deletes a set at a time: the store contract's delete rules (§3, the semantics of
/// `SaveRules.applyDeleteRules`) applied with a handful of statements whatever the number of records,
/// instead of several statements per record (docs/formats/sqlite.md, "What a delete runs").
///
/// 1. **Victims**, level by level from the requested records: for each entity with new victims and
///    each of its cascade relationships, one query of (victim, target) pairs over the whole level
///    (`currentPairs`); targets that exist and are not victims yet are the next level.
/// 2. **Rules**, for each victim entity and relationship other than a cascade (whose targets are all
///    victims after step 1), over its pairs read the same way: the survivors are the targets that stay. A deny with survivors
///    fails the save naming what the record-by-record walk names — the first victim in (entity,
///    key) order, its first such relationship, its survivors in key order — before anything is
///    written. Nullify and cascade make every survivor forget its victim, noAction only a to-many
///    side: one UPDATE setting the survivors' column to NULL, a join table's rows going with the
///    victims' (step 4); each survivor is reported changed (`touch`).
/// 3. **Order**: each entity's rows go in an order where no foreign key that deletes on cascade
///    points from a row still there at a row going, so no database action fires; only entities on
///    a cycle of such keys (a chain of one entity, two entities referring to each other) have those
///    columns emptied first, one UPDATE per entity (why: `cutCascadeColumns`).
/// 4. **Removal**: one DELETE per join table side and one per entity.
///
/// Every statement binds its keys as one parameter (`SQLDialect.keyIn`: SQLite's `json_each`,
/// PostgreSQL's `= ANY`), so its text depends on the shape alone and the connection's statement
/// cache prepares it once. Writes go through `queueWrite` (PostgreSQL sends them in the pipeline).
extension SQLSaveTransaction {
    /// Deletes `requested` (stored records, each once, already in `deletedSet`) and everything the
    /// rules cascade to; returns every deleted record in (entity, key) order.
    @inlinable package func deleteSets(_ requested: [Key]) throws -> [Key] {
        let entities = self.entities
        var victims = [[Int64]](repeating: [], count: entities.count)
        var frontier = victims
        for k in requested { frontier[k.entity].append(k.key) }
        // Per entity and to-one, how many victims are known to point at a victim through it: the
        // rows a cascade found through the to-one's column (an owner's items point at the owner).
        var pointing = entities.map { [Int](repeating: 0, count: $0.relationships.count) }
        while frontier.contains(where: { !$0.isEmpty }) {
            var next = [[Int64]](repeating: [], count: entities.count)
            for e in entities.indices where !frontier[e].isEmpty {
                victims[e].append(contentsOf: frontier[e])
                let entity = entities[e]
                for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                    let d = entity.destinationIndices[r]
                    let pairs = try currentPairs(entity, r, frontier[e])
                    if case .inverseColumn = mapping.tables[e].relationships[r] { pointing[d][entity.inverseIndices[r]] += pairs.count }
                    for pair in pairs where deletedSet.insert(Key(entity: d, key: pair.target)).inserted { next[d].append(pair.target) }
                }
            }
            frontier = next
        }
        // The rules: every survivor found first, a deny thrown before anything is written.
        var forgets: [(entity: Int, r: Int, survivors: [(victim: Int64, target: Int64)])] = []
        for e in entities.indices where !victims[e].isEmpty {
            let entity = entities[e]
            var denied: (victim: Int64, r: Int, survivors: [Int64])?
            // A cascade's targets are all victims now (step 1 read every victim's): no survivor.
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule != .cascade {
                let d = entity.destinationIndices[r]
                // Every victim's to-one points at a victim (each row is found once, by the one
                // value of its column): nothing to read, no survivor.
                if pointing[e][r] == victims[e].count { continue }
                let pairs = try currentPairs(entity, r, victims[e])
                let survivors = pairs.filter { !deletedSet.contains(Key(entity: d, key: $0.target)) }
                guard !survivors.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    let victim = survivors.map(\.victim).min()!
                    guard denied == nil || victim < denied!.victim else { continue }
                    denied = (victim, r, survivors.filter { $0.victim == victim }.map(\.target).sorted())
                case .nullify, .cascade:  // (cascade: never, above)
                    forgets.append((e, r, survivors))
                case .noAction:
                    // A to-one pointing at the deleted record keeps pointing at it (dangling, by
                    // request); a to-many never lists a deleted record.
                    if entities[d].relationshipIsToMany[entity.inverseIndices[r]] { forgets.append((e, r, survivors)) }
                }
            }
            if let denied {
                let d = entity.destinationIndices[denied.r]
                throw SaveRules.deleteDenied(entity, relationship: denied.r, victim: client(Key(entity: e, key: denied.victim)), survivors: denied.survivors.map { client(Key(entity: d, key: $0)) })
            }
        }
        for forget in forgets { try forgetDeleted(forget.entity, forget.r, forget.survivors) }
        // The rows: cascade keys cut where they form a cycle, join rows, then each entity's rows.
        let (order, cut) = try deletionOrder(victims)
        for e in order {
            for storage in mapping.tables[e].relationships {
                guard case .join(let index, let mine, let other, _) = storage else { continue }
                let join = mapping.joins[index]
                try writeKeys("DELETE FROM \(q(join.name))", where: mine, in: victims[e])
                if join.isSymmetric { try writeKeys("DELETE FROM \(q(join.name))", where: other, in: victims[e]) }
            }
        }
        for e in order {
            // Rows all found through one cascade (an owner's items) go by their parents' keys: the
            // same rows, fewer keys to bind, and SQLite walks the to-one's index instead of
            // building a set of the rows' keys first (1.1 M instructions less for 1,000 items).
            if !cut[e], let r = pointing[e].firstIndex(of: victims[e].count), case .column(let column, _) = mapping.tables[e].relationships[r] {
                try writeKeys("DELETE FROM \(q(mapping.tables[e].name))", where: column, in: victims[entities[e].destinationIndices[r]])
                continue
            }
            try writeKeys("DELETE FROM \(q(mapping.tables[e].name))", where: "_pk", in: victims[e])
        }
        var deleted: [Key] = []
        deleted.reserveCapacity(victims.reduce(0) { $0 + $1.count })
        for e in entities.indices { for key in victims[e].sorted() { deleted.append(Key(entity: e, key: key)) } }
        return deleted
    }

    /// The (victim, target) pairs of relationship `r` of `entity`'s records `keys`, one query: the
    /// targets a victim holds now, those of a to-one or many-to-many only if the record exists or
    /// is a victim already (a to-one may dangle, by noAction).
    @inlinable package func currentPairs(_ entity: EntitySchema, _ r: Int, _ keys: [Int64]) throws -> [(victim: Int64, target: Int64)] {
        let found: [(victim: Int64, target: Int64)]
        switch mapping.tables[entity.index].relationships[r] {
        case .inverseColumn(let table, let column, _):
            // The rows that point back are the targets: they exist.
            return try pairs("SELECT \(q(column)), \(q("_pk")) FROM \(q(mapping.tables[table].name))", where: column, in: keys)
        case .column(let column, _):
            found = try pairs("SELECT \(q("_pk")), \(q(column)) FROM \(table(entity))", where: "_pk", in: keys, and: "\(q(column)) IS NOT NULL")
        case .join(let index, let mine, let other, _):
            found = try pairs("SELECT \(q(mine)), \(q(other)) FROM \(q(mapping.joins[index].name))", where: mine, in: keys)
        }
        let d = entity.destinationIndices[r]
        let unknown = Array(Set(found.lazy.map(\.target).filter { !self.deletedSet.contains(Key(entity: d, key: $0)) }))
        guard !unknown.isEmpty else { return found }
        let existing = Set(try self.keys("SELECT \(q("_pk")) FROM \(q(mapping.tables[d].name))", where: "_pk", in: unknown))
        if existing.count == unknown.count { return found }
        return found.filter { existing.contains($0.target) || deletedSet.contains(Key(entity: d, key: $0.target)) }
    }

    /// Survivors forget their deleted records through relationship `r` of `entity` (the victims'
    /// side), as `SaveRuleHost.forget` does one at a time, and are reported changed.
    @inlinable package func forgetDeleted(_ e: Int, _ r: Int, _ survivors: [(victim: Int64, target: Int64)]) throws {
        let entity = entities[e]
        let d = entity.destinationIndices[r], inverse = entity.inverseIndices[r]
        switch mapping.tables[e].relationships[r] {
        case .inverseColumn(let table, let column, _):
            // Each survivor's to-one points at one victim: emptied, all at once.
            columnWrites += 1
            try writeKeys("UPDATE \(q(mapping.tables[table].name)) SET \(q(column)) = NULL", where: "_pk", in: survivors.map(\.target))
        case .column:
            // A one-to-one: the survivor's own column, if it still points at its victim.
            if case .column(let column, _) = mapping.tables[d].relationships[inverse] {
                columnWrites += 1
                let sql = "UPDATE \(q(mapping.tables[d].name)) SET \(q(column)) = NULL WHERE \(q("_pk")) = \(p(1)) AND \(q(column)) = \(p(2))"
                for pair in survivors { try queueWrite(sql, [.integer(pair.target), .integer(pair.victim)]) }
            }
        case .join:
            break  // the edge is a row of the join table, which goes with the victims' rows
        }
        for pair in survivors { touch(d, pair.target) }
    }

    /// The victim entities in the order their rows go: an entity after every entity whose rows hold a
    /// cascading key onto it, so deleting its rows fires no action. The entities left on a cycle go
    /// last, their cascading key columns emptied first (`cutCascadeColumns`); `cut` says which.
    @inlinable package func deletionOrder(_ victims: [[Int64]]) throws -> (order: [Int], cut: [Bool]) {
        var remaining = victims.indices.filter { !victims[$0].isEmpty }
        var pointsAt: [Int: Set<Int>] = [:]
        for e in remaining { pointsAt[e] = Set(cascadeTargets(e)) }
        var order: [Int] = []
        // `e` may go once no entity still to go (itself included) holds a cascading key onto it.
        while let n = remaining.firstIndex(where: { e in !remaining.contains { pointsAt[$0]!.contains(e) } }) {
            order.append(remaining.remove(at: n))
        }
        var cut = [Bool](repeating: false, count: victims.count)
        for e in remaining {
            cut[e] = true
            let columns = cascadeColumns(e)
            guard !columns.isEmpty else { continue }
            try writeKeys("UPDATE \(q(mapping.tables[e].name)) SET \(columns.map { "\(q($0)) = NULL" }.joined(separator: ", "))", where: "_pk", in: victims[e])
        }
        return (order + remaining, cut)
    }

    /// The entities `entity`'s cascading key columns point at (`cascadeColumns`).
    @inlinable package func cascadeTargets(_ entity: Int) -> [Int] {
        let e = entities[entity]
        return mapping.tables[entity].relationships.indices.filter { r in
            guard case .column = mapping.tables[entity].relationships[r] else { return false }
            return entities[e.destinationIndices[r]].relationships[e.inverseIndices[r]].deleteRule == .cascade
        }.map { e.destinationIndices[$0] }
    }

    // MARK: Statements over a set of keys

    /// `head WHERE column IN keys [AND extra]`, the keys bound as one parameter.
    @inlinable package func keyed(_ head: String, where column: String, and extra: String? = nil, _ keys: [Int64]) -> (sql: String, value: SQLValue) {
        var value = SQLValue.null
        let condition = Dialect.keyIn(q(column), keys) { value = $0; return p(1) }
        return (head + " WHERE " + condition + (extra.map { " AND " + $0 } ?? ""), value)
    }

    /// The first column of the rows of `head WHERE column IN keys`.
    @inlinable package func keys(_ head: String, where column: String, in keys: [Int64]) throws -> [Int64] {
        let (sql, value) = keyed(head, where: column, keys)
        return try db.prepare(sql).rows([value]) { $0.int64(0) }
    }

    /// The first two columns of the rows of `head WHERE column IN keys [AND extra]`.
    @inlinable package func pairs(_ head: String, where column: String, in keys: [Int64], and extra: String? = nil) throws -> [(victim: Int64, target: Int64)] {
        let (sql, value) = keyed(head, where: column, and: extra, keys)
        return try db.prepare(sql).rows([value]) { ($0.int64(0), $0.int64(1)) }
    }

    /// Runs the write `head WHERE column IN keys` (`queueWrite`).
    @inlinable package func writeKeys(_ head: String, where column: String, in keys: [Int64]) throws {
        let (sql, value) = keyed(head, where: column, keys)
        try queueWrite(sql, [value])
    }
}
