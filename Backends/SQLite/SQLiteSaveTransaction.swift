import CSQLite
import Foundation
import Strata

/// Applies one save inside `BEGIN IMMEDIATE … COMMIT`, with the contract's semantics.
///
/// The order is the shared engine's: permanent keys for every insert first; inserts and updates;
/// relationship changes, each compared with the record as stored before the save and applied as edge
/// additions and removals in request order; deletes with their rules over everything stored; then
/// deferred unique values and validation. A UNIQUE failure in the middle of a save is not final —
/// two records may swap values, a deleted record frees its value — so the row is written without
/// its unique values, which are set again at the end; only a failure then is a violation.
final class SQLiteSaveTransaction {
    struct Key: Hashable {
        let entity: Int
        let key: Int64
    }

    struct Write {
        let entity: EntitySchema
        let key: Int64
        let isInsert: Bool
        let attributes: [Value]
        let links: [Link]
        var stored: [[Int64]]
        /// An update's attribute columns as stored before the save (`SQLiteStoredRow.columns`):
        /// only the columns whose value changes are written. Empty for an insert.
        var storedColumns: [SQLValue] = []
    }

    let db: SQLiteConnection
    let mapping: SQLiteMapping
    let records: SQLiteRecords
    let storeIdentifier: String
    var schema: Schema { mapping.schema }
    let q = SQLiteMapping.quote
    /// Reads the last committed state (a reader connection), to tell which record held a unique
    /// value before the save when a save fails on a collision.
    let committed: (String, [SQLValue]) throws -> [SQLValue]?

    private(set) var remap = IdentifierRemapping()
    /// Per entity, the first key this save assigns and the temporary identifiers of the inserts, in
    /// key order: inserted keys are one contiguous range per entity, so no set is needed.
    private var firstInserted: [Int64?]
    private var temporaries: [[PersistentIdentifier]]
    private var nextKeys: [Int64?]
    private(set) var writes: [Write] = []
    /// Per entity, the positions in `writes` of its inserts, in key order.
    private var insertPositions: [[Int]]

    private func insertedWrite(_ entity: Int, _ ordinal: Int) -> Write? {
        let positions = insertPositions[entity]
        guard ordinal < positions.count else { return nil }
        return writes[positions[ordinal]]
    }

    private func isInserted(_ k: Key) -> Bool {
        guard let first = firstInserted[k.entity] else { return false }
        return k.key >= first && k.key - first < Int64(temporaries[k.entity].count)
    }
    private(set) var touched = Set<Key>()
    private(set) var deleted: [Key] = []
    private(set) var deletedSet = Set<Key>()
    /// Rows whose unique values were held back, with the properties to set again.
    private var pending: [Key: Set<PropertyReference>] = [:]
    /// Partial updates whose stored result differs from the client's snapshot: reported as changed.
    private var refreshed = Set<Key>()

    /// Per entity, "no targets" for every relationship (what an insert starts from), shared.
    private lazy var emptyStored: [[[Int64]]] = schema.entities.map { $0.relationships.map { _ in [] } }

    init(db: SQLiteConnection, mapping: SQLiteMapping, records: SQLiteRecords, storeIdentifier: String, committed: @escaping (String, [SQLValue]) throws -> [SQLValue]?) {
        self.committed = committed
        self.db = db
        self.mapping = mapping
        self.records = records
        self.storeIdentifier = storeIdentifier
        let count = mapping.schema.entities.count
        self.firstInserted = Array(repeating: nil, count: count)
        self.temporaries = Array(repeating: [], count: count)
        self.nextKeys = Array(repeating: nil, count: count)
        self.insertPositions = Array(repeating: [], count: count)
    }

    private func table(_ e: EntitySchema) -> String { q(mapping.tables[e.index].name) }

    func client(_ k: Key) -> PersistentIdentifier {
        if isInserted(k), let first = firstInserted[k.entity] { return temporaries[k.entity][Int(k.key - first)] }
        return records.id(schema.entities[k.entity].name, k.key)
    }

    // MARK: Run

    func run<S: DataStoreSnapshot>(_ request: SaveRequest<S>) throws {
        try assignKeys(request.inserted)
        try resolveWrites(request)
        for n in writes.indices where !writes[n].isInsert { _ = try writeAttributes(writes[n]) }
        for n in writes.indices where writes[n].isInsert {
            currentWriter = Key(entity: writes[n].entity.index, key: writes[n].key)
            // Relationships written by the INSERT itself need no further work.
            for r in try writeAttributes(writes[n]) { writes[n].stored[r] = writes[n].links[r].keys }
        }
        for n in writes.indices {
            currentWriter = Key(entity: writes[n].entity.index, key: writes[n].key)
            if writes[n].isInsert {
                // A to-one the INSERT wrote may have been moved by an earlier write of the save;
                // this later write wins (request order).
                for r in directToOnes(writes[n].entity) {
                    guard case .one(let target?) = writes[n].links[r], try column(writes[n].entity, writes[n].key, r) != target else { continue }
                    try attach(writes[n].entity, writes[n].key, r, target)
                }
            }
            for r in writes[n].entity.relationships.indices { try applyLink(writes[n], r) }
        }
        currentWriter = nil
        try applyDeletes(request.deleted)
        // Relationship faults are reported before unique ones (the contract's order), so a row
        // whose held values still collide is validated with them first.
        let colliding = try restorePending()
        try validate()
        if !colliding.isEmpty { throw try uniqueFault(colliding) }
    }

    private func assignKeys<S: DataStoreSnapshot>(_ inserted: [S]) throws {
        remap.reserveCapacity(inserted.count)
        for n in inserted.indices {
            let id = inserted[n].persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: inserted[n].entity, in: schema)
            guard id.isTemporary else { throw SaveValidation.permanentOnInsert(id, entity) }
            let next = try nextKeys[entity.index] ?? firstFreeKey(entity)
            guard next < StoreState.keyLimit else { throw StrataError.keysExhausted(entity) }
            nextKeys[entity.index] = next + 1
            guard remap.insert(records.id(entity.name, next), for: id) else { throw SaveValidation.twice(id, entity, "inserted") }
            if firstInserted[entity.index] == nil { firstInserted[entity.index] = next }
            temporaries[entity.index].append(id)
        }
    }

    /// The key after the largest one `sqlite_sequence` records for `entity` (keys are never reused).
    /// A sequence at `Int64.max` stays there, so the caller reports `keysExhausted` instead of
    /// overflowing; a negative one (a damaged file) restarts at 1.
    private func firstFreeKey(_ entity: EntitySchema) throws -> Int64 {
        let sequence = try db.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").rows([.text(mapping.tables[entity.index].name)]) { $0.int64(0) }.first ?? 0
        return sequence >= StoreState.keyLimit ? StoreState.keyLimit : max(sequence, 0) + 1
    }

    /// The last reference resolved: children saved together usually point at the same parent.
    private var lastReference: (id: PersistentIdentifier, destination: Int, key: Int64)?

    private func reference(_ target: PersistentIdentifier, _ destination: EntitySchema, _ entity: EntitySchema, _ r: Int, source: PersistentIdentifier, stored: [Int64]?) throws -> Int64 {
        if let last = lastReference, last.destination == destination.index, last.id == target { return last.key }
        let key = try SaveValidation.referenceKey(target, to: destination, from: entity, relationship: r, storeIdentifier: storeIdentifier, remapping: remap)
        // A permanent reference must name a record stored before the save, checked with the rest
        // of the snapshot so the fault reported does not depend on when links are applied.
        if !target.isTemporary, !known.contains(Key(entity: destination.index, key: key)) {
            // A reference the record already held stays, even dangling (noAction).
            if stored?.contains(key) == true { return key }
            guard try records.exists(destination, key) else { throw SaveValidation.danglingReference(target, from: entity, relationship: r, source: source) }
            known.insert(Key(entity: destination.index, key: key))
        }
        lastReference = (target, destination.index, key)
        return key
    }

    private func links(_ relationships: [RelationshipValue], _ entity: EntitySchema, _ id: PersistentIdentifier, stored: [[Int64]]? = nil) throws -> [Link] {
        var links: [Link] = []
        links.reserveCapacity(relationships.count)
        for (i, value) in relationships.enumerated() { links.append(try link(value, entity, i, id, stored: stored?[i])) }
        return links
    }

    private func link(_ value: RelationshipValue, _ entity: EntitySchema, _ i: Int, _ id: PersistentIdentifier, stored: [Int64]? = nil) throws -> Link {
        let destination = schema.entities[entity.destinationIndices[i]]
        switch (value, entity.relationshipIsToMany[i]) {
        case (.toOne(nil), false):
            return .one(nil)
        case (.toOne(let t?), false):
            return .one(try reference(t, destination, entity, i, source: id, stored: stored))
        case (.toMany(let ts), true):
            var keys: [Int64] = []
            keys.reserveCapacity(ts.count)
            for t in ts { keys.append(try reference(t, destination, entity, i, source: id, stored: stored)) }
            if keys.count > 1 {
                var seen = Set<Int64>()
                keys = keys.filter { seen.insert($0).inserted }
            }
            return .many(keys)
        default:
            throw SaveValidation.shapeMismatch(entity, i, identifier: id)
        }
    }

    private func resolveWrites<S: DataStoreSnapshot>(_ request: SaveRequest<S>) throws {
        for n in request.inserted.indices {
            let id = request.inserted[n].persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: request.inserted[n].entity, in: schema)
            let attributes = request.inserted[n].attributeValues, relationships = request.inserted[n].relationshipValues
            try SaveValidation.checkValues(attributes, relationships, of: entity, identifier: id)
            let key = remap.permanentIdentifiers[n].primaryKey
            insertPositions[entity.index].append(writes.count)
            writes.append(Write(entity: entity, key: key, isInsert: true, attributes: attributes, links: try links(relationships, entity, id), stored: emptyStored[entity.index]))
        }
        var seen = Set<Key>()
        for snapshot in request.updated {
            let id = snapshot.persistentIdentifier
            let entity = try SaveValidation.entity(of: id, given: snapshot.entity, in: schema)
            var stored: [[Int64]] = [], storedColumns: [SQLValue] = []
            let key = try SaveValidation.existingKey(id, of: entity, verb: "update", storeIdentifier: storeIdentifier) { k in
                guard let found = try records.storedRow(entity, k) else { return false }
                (stored, storedColumns) = (found.targets, found.columns)
                return true
            }
            guard seen.insert(Key(entity: entity.index, key: key)).inserted else { throw SaveValidation.twice(id, entity, "updated") }
            try SaveValidation.checkValues(snapshot.attributeValues, snapshot.relationshipValues, of: entity, identifier: id)
            var attributes = snapshot.attributeValues, sent = try links(snapshot.relationshipValues, entity, id, stored: stored)
            if let scope = request.updatedProperties[id], let row = try records.snapshot(entity, key) {
                // A partial update writes the listed properties over the row as stored now.
                let storedLinks = zip(stored, entity.relationshipIsToMany).map { $1 ? Link.many($0) : Link.one($0.first) }
                let merged = try scope.merged(attributes: attributes, links: sent, storedAttributes: row.attributes, storedLinks: storedLinks, entity: entity, identifier: id) { value, r in try link(value, entity, r, id, stored: stored[r]) }
                if merged.attributes != attributes || merged.links != sent { refreshed.insert(Key(entity: entity.index, key: key)) }
                (attributes, sent) = merged
            }
            writes.append(Write(entity: entity, key: key, isInsert: false, attributes: attributes, links: sent, stored: stored, storedColumns: storedColumns))
        }
    }

    // MARK: Attributes

    /// For an insert, the to-one relationships written in the INSERT itself: those whose inverse is
    /// a to-many derived from this column, so setting the column is the whole edge.
    private func directToOnes(_ entity: EntitySchema) -> [Int] {
        if let cached = directCache[entity.index] { return cached }
        let direct = entity.relationships.indices.filter { r in
            guard case .column = mapping.tables[entity.index].relationships[r] else { return false }
            let destination = schema.entities[entity.destinationIndices[r]]
            if case .inverseColumn = mapping.tables[destination.index].relationships[entity.inverseIndices[r]] { return true }
            return false
        }
        directCache[entity.index] = direct
        return direct
    }
    private var directCache: [Int: [Int]] = [:]
    /// Next position at the end of an ordered list, per (child table, parent), counted during the save.
    private var positions: [String: Int64] = [:]

    private func appendPosition(_ table: String, _ listColumn: String, _ orderColumn: String, _ owner: Int64) throws -> Int64 {
        let slot = "\(table)|\(listColumn)|\(owner)"
        let position = try positions[slot] ?? nextPosition(table, listColumn, orderColumn, owner)
        positions[slot] = position + 1
        return position
    }

    private func writeAttributes(_ w: Write) throws -> [Int] {
        let t = mapping.tables[w.entity.index]
        var values: [SQLValue] = []
        values.reserveCapacity(t.attributeColumns.count * 2 + 2)
        // An update writes only the attributes whose columns change: SQLite then leaves the index
        // entries of the others alone. An insert writes all of them (`written` stays empty).
        var written: [Int] = []
        var storedPosition = 0
        for (i, value) in w.attributes.enumerated() {
            let (main, bits) = SQLiteValueCodec.encode(value)
            let hasBits = t.bitsColumns[i] != nil
            if !w.isInsert {
                defer { storedPosition += hasBits ? 2 : 1 }
                if storedPosition < w.storedColumns.count, SQLiteValueCodec.same(main, w.storedColumns[storedPosition]),
                    !hasBits || SQLiteValueCodec.same(bits, w.storedColumns[storedPosition + 1]) {
                    continue
                }
                written.append(i)
            }
            values.append(main)
            if hasBits { values.append(bits) }
        }
        let writtenAttributes = w.isInsert ? Array(w.attributes.indices) : written
        var direct: [Int] = []
        if w.isInsert {
            for r in directToOnes(w.entity) {
                guard case .one(let target?) = w.links[r], case .column(let column, let order) = t.relationships[r] else { continue }
                let destination = schema.entities[w.entity.destinationIndices[r]]
                try requireExists(destination, target, from: w, r)
                values.append(.integer(target))
                if let order { values.append(.integer(try appendPosition(t.name, column, order, target))) }
                touch(destination.index, target)
                direct.append(r)
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
        let key = Key(entity: w.entity.index, key: w.key)
        let shape = SQLiteRowShape(entity: w.entity.index, insert: w.isInsert, direct: direct, attributes: written)
        let prepared: SQLiteStatement
        if let cached = db.rowStatements[shape] {
            prepared = cached
        } else if w.isInsert {
            let columns = columns
            let names = ([q("_pk")] + columns.map(q)).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
            prepared = try db.prepare("INSERT INTO \(q(t.name)) (\(names)) VALUES (\(marks))")
            db.rowStatements[shape] = prepared
        } else {
            prepared = try db.prepare("UPDATE \(q(t.name)) SET \(columns.enumerated().map { "\(q($1)) = ?\($0 + 2)" }.joined(separator: ", ")) WHERE \(q("_pk")) = ?1")
            db.rowStatements[shape] = prepared
        }
        func statement(_ values: [SQLValue]) throws {
            guard w.isInsert || !values.isEmpty else { return }
            // The key goes first: `_pk` in an INSERT, `?1` in an UPDATE's WHERE.
            try prepared.bind(w.key, then: values)
            defer { prepared.reset() }
            while try prepared.step() {}
        }
        do {
            try statement(values)
        } catch let error as SQLiteError where isUniqueFailure(error) {
            // Hold the unique values back until the end of the save.
            var held = values
            var properties = Set<PropertyReference>()
            for refs in w.entity.uniqueConstraints { properties.formUnion(refs) }
            var position = 0
            for i in writtenAttributes {
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
            try statement(held)
            pending[key, default: []].formUnion(properties.filter { if case .relationship(let r) = $0 { direct.contains(r) } else { true } })
        }
        return direct
    }

    private func isUniqueFailure(_ error: SQLiteError) -> Bool {
        error.code == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ || error.code == 1555 /* SQLITE_CONSTRAINT_PRIMARYKEY */
    }

    // MARK: Relationships

    /// The record whose relationships are being applied; changes to any other record are the
    /// store's own and go into the save result.
    private var currentWriter: Key?
    private var touchedByOthers = Set<Key>()

    private var lastTouched: Key?
    private var lastTouchedByOther = false

    private func touch(_ entity: Int, _ key: Int64) {
        let k = Key(entity: entity, key: key)
        let byOther = k != currentWriter
        // Children inserted together touch one parent over and over: once is enough.
        if k == lastTouched && (lastTouchedByOther || !byOther) { return }
        lastTouched = k
        lastTouchedByOther = byOther
        touched.insert(k)
        if byOther { touchedByOthers.insert(k) }
    }

    /// Records known to exist in this save (inserted, or checked once).
    private var known = Set<Key>()

    private func requireExists(_ destination: EntitySchema, _ target: Int64, from w: Write, _ r: Int) throws {
        let k = Key(entity: destination.index, key: target)
        if (isInserted(k) || known.contains(k)) && !deletedSet.contains(k) { return }
        if try records.exists(destination, target) {
            known.insert(k)
            return
        }
        throw SaveValidation.danglingReference(client(Key(entity: destination.index, key: target)), from: w.entity, relationship: r, source: client(Key(entity: w.entity.index, key: w.key)))
    }

    /// Sets a to-one column; a UNIQUE failure holds the value back until the end of the save.
    private func setColumn(_ entity: EntitySchema, _ key: Int64, relationship r: Int, to value: Int64?, order: (String, Int64)? = nil) throws {
        guard case .column(let column, _) = mapping.tables[entity.index].relationships[r] else { return }
        var sets = "\(q(column)) = ?"
        var values: [SQLValue] = [value.map { .integer($0) } ?? .null]
        if let (orderColumn, position) = order {
            sets += ", \(q(orderColumn)) = ?"
            values.append(.integer(position))
        }
        do {
            try db.prepare("UPDATE \(table(entity)) SET \(sets) WHERE \(q("_pk")) = ?").run(values + [.integer(key)])
            // A later write of a held-back column wins: the value held earlier is stale.
            let k = Key(entity: entity.index, key: key)
            if intended[k]?[r] != nil {
                intended[k]?[r] = nil
                pending[k]?.remove(.relationship(r))
            }
        } catch let error as SQLiteError where isUniqueFailure(error) {
            values[0] = .null
            try db.prepare("UPDATE \(table(entity)) SET \(sets) WHERE \(q("_pk")) = ?").run(values + [.integer(key)])
            pending[Key(entity: entity.index, key: key), default: []].insert(.relationship(r))
            intended[Key(entity: entity.index, key: key), default: [:]][r] = value
        }
        touch(entity.index, key)
    }

    /// The to-one values a held-back row should get at the end of the save.
    private(set) var intended: [Key: [Int: Int64?]] = [:]

    /// The targets relationship `r` of a record holds during the save, held-back to-one values
    /// included (a held row's column is NULL in the table until the end of the save).
    func currentTargets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
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

    private func column(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> Int64? {
        if let value = intended[Key(entity: entity.index, key: key)]?[r] { return value }
        return try records.targets(entity, key, r).first
    }

    private func nextPosition(_ table: String, _ listColumn: String, _ orderColumn: String, _ owner: Int64) throws -> Int64 {
        try db.prepare("SELECT COALESCE(MAX(\(q(orderColumn))), -1) + 1 FROM \(q(table)) WHERE \(q(listColumn)) = ?").rows([.integer(owner)]) { $0.int64(0) }.first ?? 0
    }

    /// Adds `target` to relationship `r` of (`entity`, `key`), one side only, moving it away from a
    /// to-one's previous holder.
    private func attach(_ entity: EntitySchema, _ key: Int64, _ r: Int, _ target: Int64) throws {
        let destination = schema.entities[entity.destinationIndices[r]]
        let inverse = entity.inverseIndices[r]
        switch mapping.tables[entity.index].relationships[r] {
        case .column(_, let order):
            let previous = try column(entity, key, r)
            guard previous != target else { return }
            if let previous { try detachColumnSide(destination, previous, inverse, from: key) }
            var position: (String, Int64)?
            if let order, case .inverseColumn(_, let listColumn, _) = mapping.tables[destination.index].relationships[inverse] {
                position = (order, try nextPosition(mapping.tables[entity.index].name, listColumn, order, target))
            }
            try setColumn(entity, key, relationship: r, to: target, order: position)
            touch(destination.index, target)
        case .inverseColumn:
            // Derived from the destination's column: attaching is setting that column.
            try attach(destination, target, inverse, key)
        case .join(let index, let mine, let other, let order):
            let join = mapping.joins[index]
            let otherOrder = join.left == mine ? join.rightOrder : join.leftOrder
            var columns = [mine, other]
            var values: [SQLValue] = [.integer(key), .integer(target)]
            if let order { columns.append(order); values.append(.integer(try nextPosition(join.name, mine, order, key))) }
            if let otherOrder { columns.append(otherOrder); values.append(.integer(try nextPosition(join.name, other, otherOrder, target))) }
            try db.prepare("INSERT OR IGNORE INTO \(q(join.name)) (\(columns.map(q).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))").run(values)
            touch(entity.index, key)
            touch(destination.index, target)
        }
    }

    /// When (`entity`, `key`) stops pointing at `target` through a to-one, `target`'s inverse loses it.
    private func detachColumnSide(_ destination: EntitySchema, _ target: Int64, _ inverse: Int, from key: Int64) throws {
        touch(destination.index, target)
        if case .column = mapping.tables[destination.index].relationships[inverse], try column(destination, target, inverse) == key {
            try setColumn(destination, target, relationship: inverse, to: nil)
        }
    }

    /// Removes the edge between (`entity`, `key`) and `target` on both sides.
    private func unlink(_ entity: EntitySchema, _ key: Int64, _ r: Int, _ target: Int64) throws {
        let destination = schema.entities[entity.destinationIndices[r]]
        let inverse = entity.inverseIndices[r]
        switch mapping.tables[entity.index].relationships[r] {
        case .column:
            if try column(entity, key, r) == target { try setColumn(entity, key, relationship: r, to: nil) }
            try detachColumnSide(destination, target, inverse, from: key)
        case .inverseColumn:
            try unlink(destination, target, inverse, key)
        case .join(let index, let mine, let other, _):
            try db.prepare("DELETE FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = ? AND \(q(other)) = ?").run([.integer(key), .integer(target)])
            touch(entity.index, key)
            touch(destination.index, target)
        }
    }

    private func applyLink(_ w: Write, _ r: Int) throws {
        let stored = w.stored[r]
        let sent = w.links[r].keys
        guard stored != sent else { return }
        let destination = schema.entities[w.entity.destinationIndices[r]]
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
    private func reorder(_ entity: EntitySchema, _ key: Int64, _ r: Int, as written: [Int64]) throws {
        let current = try records.targets(entity, key, r)
        let present = Set(current), listed = Set(written)
        let ordered = written.filter { present.contains($0) } + current.filter { !listed.contains($0) }
        guard ordered != current else { return }
        switch mapping.tables[entity.index].relationships[r] {
        case .inverseColumn(let table, let column, let order?):
            let sql = "UPDATE \(q(mapping.tables[table].name)) SET \(q(order)) = ? WHERE \(q("_pk")) = ? AND \(q(column)) = ?"
            for (position, target) in ordered.enumerated() { try db.prepare(sql).run([.integer(Int64(position)), .integer(target), .integer(key)]) }
        case .join(let index, let mine, let other, let order?):
            let sql = "UPDATE \(q(mapping.joins[index].name)) SET \(q(order)) = ? WHERE \(q(mine)) = ? AND \(q(other)) = ?"
            for (position, target) in ordered.enumerated() { try db.prepare(sql).run([.integer(Int64(position)), .integer(key), .integer(target)]) }
        default:
            break
        }
        touch(entity.index, key)
    }

    // MARK: Deletes

    private func applyDeletes<S: DataStoreSnapshot>(_ requested: [S]) throws {
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
    private func cutCascadeColumns(_ victims: [Key]) throws {
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
    private func detachForDelete(_ destination: EntitySchema, _ target: Int64, _ inverse: Int, _ victim: Int64) throws {
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

    // MARK: Unique values and validation

    /// Sets every held-back value again; returns the rows whose values still collide (their holds
    /// stay in `intended`, so validation sees them).
    private func restorePending() throws -> [Key] {
        guard !pending.isEmpty else { return [] }
        var colliding: [Key] = []
        var values: [Key: [Value]] = [:]
        for w in writes where pending[Key(entity: w.entity.index, key: w.key)] != nil { values[Key(entity: w.entity.index, key: w.key)] = w.attributes }
        for (key, properties) in pending.sorted(by: { ($0.key.entity, $0.key.key) < ($1.key.entity, $1.key.key) }) where !deletedSet.contains(key) {
            let entity = schema.entities[key.entity]
            let t = mapping.tables[key.entity]
            var sets: [String] = []
            var params: [SQLValue] = []
            for property in properties {
                switch property {
                case .attribute(let i):
                    guard let attributes = values[key] else { continue }
                    sets.append("\(q(t.attributeColumns[i])) = ?")
                    params.append(SQLiteValueCodec.encode(attributes[i]).0)
                case .relationship(let r):
                    guard case .column(let c, _) = t.relationships[r], let value = intended[key]?[r] else { continue }
                    sets.append("\(q(c)) = ?")
                    params.append(value.map { .integer($0) } ?? .null)
                }
            }
            guard !sets.isEmpty else { continue }
            do {
                try db.prepare("UPDATE \(q(t.name)) SET \(sets.joined(separator: ", ")) WHERE \(q("_pk")) = ?").run(params + [.integer(key.key)])
            } catch let error as SQLiteError where isUniqueFailure(error) {
                colliding.append(key)
                continue
            }
            intended[key] = nil
        }
        return colliding
    }

    /// The violation a row's values cause, naming the record that already holds them.
    func uniqueViolation(_ entity: EntitySchema, _ key: Int64) throws -> StrataError {
        let t = mapping.tables[entity.index]
        let values = Dictionary(writes.map { (Key(entity: $0.entity.index, key: $0.key), $0) }, uniquingKeysWith: { a, _ in a })
        for refs in entity.uniqueConstraints {
            var conditions: [String] = []
            var params: [SQLValue] = []
            var complete = true
            for ref in refs {
                let column = mapping.column(of: ref, in: t)
                var value: SQLValue = .null
                switch ref {
                case .attribute(let i):
                    if let w = values[Key(entity: entity.index, key: key)] {
                        value = SQLiteValueCodec.encode(w.attributes[i]).0
                    } else {
                        value = try db.prepare("SELECT \(q(column)) FROM \(q(t.name)) WHERE \(q("_pk")) = ?").rows([.integer(key)]) { $0.value(0) }.first ?? .null
                    }
                case .relationship(let r):
                    let target: Int64?
                    if let held = intended[Key(entity: entity.index, key: key)]?[r] { target = held } else { target = try records.targets(entity, key, r).first }
                    value = target.map { .integer($0) } ?? .null
                }
                if value == .null { complete = false }
                conditions.append("\(q(column)) = ?")
                params.append(value)
            }
            guard complete else { continue }
            let holders = try db.prepare("SELECT \(q("_pk")) FROM \(q(t.name)) WHERE \(conditions.joined(separator: " AND ")) AND \(q("_pk")) != ?").rows(params + [.integer(key)]) { $0.int64(0) }
            if let holder = holders.first {
                let names = refs.map(entity.name(of:))
                let h = client(Key(entity: entity.index, key: holder)), me = client(Key(entity: entity.index, key: key))
                return StrataError(.uniqueConstraintViolation, "\(me) would share \(names.joined(separator: ", ")) with \(h), which already holds those values. Change the values or update that record instead.", entity: entity.name, properties: names, identifiers: [h, me])
            }
        }
        return StrataError(.uniqueConstraintViolation, "\(client(Key(entity: entity.index, key: key))) violates a unique constraint of '\(entity.name)'.", entity: entity.name, identifiers: [client(Key(entity: entity.index, key: key))])
    }

    private func validate() throws {
        let needsCheck = schema.entities.map { e in
            e.relationships.contains { (!$0.isToMany && !$0.isOptional) || $0.minCount != nil || $0.maxCount != nil }
        }
        var checked = Set<Key>()
        let candidates = writes.lazy.map { Key(entity: $0.entity.index, key: $0.key) }.filter { needsCheck[$0.entity] }
        // In (entity, key) order, so the fault reported is the same on every backend.
        let ordered = (Array(candidates) + touched.filter({ needsCheck[$0.entity] })).sorted { ($0.entity, $0.key) < ($1.entity, $1.key) }
        for key in ordered where !deletedSet.contains(key) {
            guard checked.insert(key).inserted else { continue }
            let entity = schema.entities[key.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let bounded = relationship.minCount != nil || relationship.maxCount != nil
                guard (!relationship.isToMany && !relationship.isOptional) || bounded else { continue }
                guard try records.exists(entity, key.key) else { continue }
                let count = try currentTargets(entity, key.key, r).count
                if !relationship.isToMany && count == 0 {
                    throw StrataError(.missingRequiredRelationship, "'\(relationship.name)' is required; give \(client(key)) a target.", entity: entity.name, properties: [relationship.name], identifiers: [client(key)])
                }
                if let lo = relationship.minCount, count < lo {
                    throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(client(key)) would hold \(count) record(s); at least \(lo) are required.", entity: entity.name, properties: [relationship.name], identifiers: [client(key)])
                }
                if let hi = relationship.maxCount, count > hi {
                    throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(client(key)) would hold \(count) record(s); at most \(hi) are allowed.", entity: entity.name, properties: [relationship.name], identifiers: [client(key)])
                }
            }
        }
    }

    /// The records the save changed beyond what the request sent, to report in the result.
    func changedRecords() throws -> [DefaultSnapshot] {
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
            let entity = schema.entities[key.entity]
            guard let snapshot = try records.snapshot(entity, key.key) else { continue }
            if let w = written(key), !refreshed.contains(key) {
                let sent = w.links.map { $0.keys }
                let now = snapshot.relationships.map { $0.targets.map(\.primaryKey) }
                let same = zip(entity.relationships, zip(sent, now)).allSatisfy { r, pair in
                    r.isToMany && !r.isOrdered ? Set(pair.0) == Set(pair.1) : pair.0 == pair.1
                }
                if same { continue }
            }
            result.append(snapshot)
        }
        return result
    }
}
