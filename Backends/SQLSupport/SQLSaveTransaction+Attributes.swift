import Foundation
@_spi(StrataEngine) import Strata

/// Writing a record's row: the INSERT or UPDATE of its attribute columns (and, for an insert, the
/// to-one columns it sets itself), holding unique values back when the database refuses them mid-save.
extension SQLSaveTransaction {
    /// For an insert, the to-one relationships written in the INSERT itself (`Start.directToOnes`).
    @inlinable package func directToOnes(_ entity: EntitySchema) -> [Int] { start.directToOnes[entity.index] }

    @inlinable package func appendPosition(_ table: String, _ listColumn: String, _ orderColumn: String, _ owner: Int64) throws -> Int64 {
        let slot = "\(table)|\(listColumn)|\(owner)"
        let position = try positions[slot] ?? nextPosition(table, listColumn, orderColumn, owner)
        positions[slot] = position + 1
        return position
    }

    @inlinable package func writeAttributes(_ w: Write) throws -> [Int] {
        let t = mapping.tables[w.entity.index]
        // An update writes only the attributes whose columns change (`Write.changed`): the database then
        // leaves the index entries of the others alone. An insert writes all of them.
        let written = w.changed
        // An update that changes no attribute column writes nothing (there is no empty UPDATE).
        if !w.isInsert && written.isEmpty { return [] }
        // An insert's values, in column order. An update binds its few values straight from the
        // write (`bindUpdate`) and builds this array only to hold unique values back.
        var values: [SQLValue] = []
        func add(_ i: Int) {
            let (main, bits) = SQLValueCodec.encode(w.attributes[i])
            values.append(main)
            if t.bitsColumns[i] != nil { values.append(bits) }
        }
        if w.isInsert {
            values.reserveCapacity(w.attributes.count * 2 + 2)
            for i in w.attributes.indices { add(i) }
        }
        /// The attributes in `values` order, needed only to prepare a statement or hold values back.
        var writtenAttributes: [Int] { w.isInsert ? Array(w.attributes.indices) : written }
        var direct: [Int] = []
        if w.isInsert {
            let all = directToOnes(w.entity)
            // Usually every direct to-one is set: then the shared per-entity list is the shape's,
            // and no array is built per row.
            if all.allSatisfy({ if case .one(_?) = w.links[$0] { true } else { false } }) { direct = all }
            for r in all {
                guard case .one(let target?) = w.links[r], case .column(let column, let order) = t.relationships[r] else { continue }
                let destination = entities[w.entity.destinationIndices[r]]
                try requireExists(destination, target, from: w, r)
                values.append(.integer(target))
                if let order {
                    let position = try appendPosition(t.name, column, order, target)
                    values.append(.integer(position))
                    listPlaces[Key(entity: w.entity.index, key: w.key), default: [:]][r] = position
                }
                touch(destination.index, target)
                noteInsertedMember(w.key, ofList: w.entity.inverseIndices[r], of: target, entity: destination.index)
                if direct.count < all.count { direct.append(r) }
            }
        }
        /// The columns in `values` order, needed only to prepare a new statement.
        var columns: [String] {
            var columns: [String] = []
            for i in writtenAttributes {
                columns.append(t.attributeColumns[i])
                if let b = t.bitsColumns[i] { columns.append(b) }
            }
            for r in direct {
                if case .column(let c, let order) = t.relationships[r] {
                    columns.append(c)
                    if let order { columns.append(order) }
                }
            }
            return columns
        }
        let shape = SQLRowShape(entity: w.entity.index, insert: w.isInsert, direct: direct, attributes: written)
        let prepared: Connection.Statement
        var repeated = false
        if let last = lastRowStatement, last.shape == shape {
            // Saves and their rows mostly repeat one shape: no hashing of the shape's arrays.
            prepared = last.statement
            repeated = true
        } else if let cached = rowStatements[shape] {
            prepared = cached
        } else if w.isInsert {
            let columns = columns
            let names = ([q("_pk")] + columns.map(q)).joined(separator: ", ")
            let marks = (1 ... columns.count + 1).map(p).joined(separator: ", ")
            prepared = try db.prepare("INSERT INTO \(q(t.name)) (\(names)) VALUES (\(marks))")
            rowStatements[shape] = prepared
        } else {
            let columns = columns
            prepared = try db.prepare("UPDATE \(q(t.name)) SET \(columns.enumerated().map { "\(q($1)) = \(p($0 + 1))" }.joined(separator: ", ")) WHERE \(q("_pk")) = \(p(columns.count + 1))")
            rowStatements[shape] = prepared
        }
        if !repeated { lastRowStatement = (shape, prepared) }
        if w.isInsert, db.queuesInserts {
            // Sent with the save's other INSERTs (`sendQueuedInserts`), many per round trip.
            try bindRow(prepared, values, key: w.key, insert: true)
            try db.queueInsert(prepared)
            queuedInserts.append((w, values, direct, prepared))
            return direct
        }
        /// An update's changed columns bound one by one, without building `values`: the array and
        /// its growth cost about 500 instructions of a one-record update.
        func bindUpdate() throws {
            var index: Int32 = 1
            for i in written {
                let (main, bits) = SQLValueCodec.encode(w.attributes[i])
                try prepared.bind(main, at: index)
                index += 1
                if t.bitsColumns[i] != nil {
                    try prepared.bind(bits, at: index)
                    index += 1
                }
            }
            try prepared.bind(.integer(w.key), at: index)
        }
        if !w.isInsert, !writesUniqueAttribute(w.entity.index, written) {
            // No unique value among the changed columns: the UPDATE cannot be refused for one, so
            // it needs no `attempt` and goes with the save's next statement (`queueWrite`).
            try bindUpdate()
            try db.queueWrite(prepared)
            return direct
        }
        do {
            try db.attempt {
                if w.isInsert {
                    try bindRow(prepared, values, key: w.key, insert: true)
                    try runRow(prepared)
                } else {
                    try bindUpdate()
                    defer { prepared.resetKeepingBindings() }
                    while try prepared.step() {}
                }
            }
        } catch where db.isUniqueFailure(error) {
            if !w.isInsert { for i in written { add(i) } }
            try holdBack(w, values, direct: direct, statement: prepared)
        }
        return direct
    }

    /// Whether any of `attributes` of entity `entity` is covered by a unique constraint.
    @inlinable package func writesUniqueAttribute(_ entity: Int, _ attributes: [Int]) -> Bool {
        let unique = start.uniqueProperties[entity]
        guard !unique.isEmpty else { return false }
        return attributes.contains { unique.contains(.attribute($0)) }
    }

    /// Runs `sql` with `values` as a write the save does not wait for (`SQLConnection.queueWrite`):
    /// one that cannot be refused for a unique value.
    @inlinable package func queueWrite(_ sql: String, _ values: [SQLValue]) throws {
        let statement = try db.prepare(sql)
        try statement.bind(values)
        try db.queueWrite(statement)
    }

    /// Binds a row statement's parameters: the key is `_pk`, an INSERT's first column, or an
    /// UPDATE's WHERE after the values. Every parameter is bound again each time: no need to clear
    /// them after.
    @inlinable package func bindRow(_ prepared: Connection.Statement, _ values: [SQLValue], key: Int64, insert: Bool) throws {
        let first: Int32 = insert ? 2 : 1
        try prepared.bind(.integer(key), at: insert ? 1 : Int32(values.count) + 1)
        for (i, value) in values.enumerated() { try prepared.bind(value, at: first + Int32(i)) }
    }

    /// Runs a bound row statement to its end, its bindings kept.
    @inlinable package func runRow(_ prepared: Connection.Statement) throws {
        defer { prepared.resetKeepingBindings() }
        while try prepared.step() {}
    }

    /// Writes `w`'s row with its unique values held back until the end of the save (NULL now, set
    /// again by `restorePending`): the database refused them mid-save, where a collision is not
    /// final. `values` are the row statement's values in column order (`prepared`'s parameters
    /// without the key).
    @inlinable package func holdBack(_ w: Write, _ values: [SQLValue], direct: [Int], statement prepared: Connection.Statement) throws {
        let t = mapping.tables[w.entity.index]
        let key = Key(entity: w.entity.index, key: w.key)
        var held = values
        var properties = Set<PropertyReference>()
        for refs in w.entity.uniqueConstraints { properties.formUnion(refs) }
        var position = 0
        for i in w.isInsert ? Array(w.attributes.indices) : w.changed {
            if properties.contains(.attribute(i)) { held[position] = .null }
            position += t.bitsColumns[i] == nil ? 1 : 2
        }
        for r in direct {
            if properties.contains(.relationship(r)) {
                held[position] = .null
                intended[key, default: [:]][r] = w.links[r].keys.first
            }
            if case .column(_, let order?) = t.relationships[r] { _ = order; position += 2 } else { position += 1 }
        }
        if w.isInsert || !held.isEmpty {
            try bindRow(prepared, held, key: w.key, insert: w.isInsert)
            try runRow(prepared)
        }
        pending[key, default: []].formUnion(properties.filter { if case .relationship(let r) = $0 { direct.contains(r) } else { true } })
    }

    /// Sends the INSERTs the save queued (`SQLConnection.queuesInserts`) and holds back the unique
    /// values of the rows refused for them, as `writeAttributes` does for a row run alone. Before
    /// anything reads the inserted rows' relationships (`run`).
    @inlinable package func sendQueuedInserts() throws {
        guard !queuedInserts.isEmpty else { return }
        defer { queuedInserts.removeAll() }
        for n in try db.sendQueuedInserts() {
            let queued = queuedInserts[n]
            try holdBack(queued.write, queued.values, direct: queued.direct, statement: queued.statement)
        }
    }

}
