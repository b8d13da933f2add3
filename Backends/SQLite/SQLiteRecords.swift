import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Reads records and relationship values through one connection.
struct SQLiteRecords {
    let db: SQLiteConnection
    let mapping: SQLiteMapping
    /// Per entity, how a row becomes a snapshot (`SQLiteStore.layouts`).
    let layouts: [SQLiteRowLayout]
    let storeIdentifier: String
    private let q = SQLiteMapping.quote

    init(db: SQLiteConnection, mapping: SQLiteMapping, layouts: [SQLiteRowLayout], storeIdentifier: String) {
        self.db = db
        self.mapping = mapping
        self.layouts = layouts
        self.storeIdentifier = storeIdentifier
    }

    /// The columns a snapshot needs from the entity's own table, after `_pk`: attributes (with their
    /// `__bits`), then the to-one columns.
    func columns(_ entity: EntitySchema) -> [String] { mapping.texts[entity.index].columns }

    /// Builds snapshots from rows selected with `columns(entity)`.
    func snapshots(_ statement: SQLiteStatement, _ entity: EntitySchema, parameters: [SQLValue]) throws -> [DefaultSnapshot] {
        var result: [DefaultSnapshot] = []
        try statement.bind(parameters)
        defer { statement.reset() }
        let layout = layouts[entity.index]
        while try statement.step() { result.append(try snapshot(of: statement, layout)) }
        return result
    }

    /// Snapshots of the rows selected with `columns(entity)`, each keeping its row as SQLite gave
    /// it (`SQLiteRows`, blocks of `SQLiteRows.blockWords`), values decoded when read.
    func rows(_ statement: SQLiteStatement, _ entity: EntitySchema, parameters: [SQLValue]) throws -> [SQLiteSnapshot] {
        let layout = layouts[entity.index]
        guard layout.keepsRows else { return try snapshots(statement, entity, parameters: parameters).map(SQLiteSnapshot.init) }
        var result: [SQLiteSnapshot] = []
        try statement.bind(parameters)
        defer { statement.reset() }
        let file = db.path
        var block = SQLiteRows.make(capacity: SQLiteRows.blockWords, layout: layout, storeIdentifier: storeIdentifier)
        while try statement.step() {
            result.append(try row(of: statement, layout, in: &block, size: SQLiteRows.blockWords, file: file))
        }
        return result
    }

    /// The snapshot of the row `statement` is on, kept in `block`, or in a new block (of `size`
    /// words, or the row's size if larger) that replaces it when the row does not fit.
    @inline(__always)
    private func row(of statement: SQLiteStatement, _ layout: SQLiteRowLayout, in block: inout SQLiteRows, size: Int, file: String) throws -> SQLiteSnapshot {
        let key = statement.int64(0)
        if let at = try block.append(statement, layout, file: file, targets: { r, key in try targets(layout.entity, key, r) }) {
            return SQLiteSnapshot(key: key, block: block, row: at)
        }
        block = SQLiteRows.make(capacity: max(size, SQLiteRows.words(statement, layout)), layout: layout, storeIdentifier: storeIdentifier)
        guard let at = try block.append(statement, layout, file: file, targets: { r, key in try targets(layout.entity, key, r) }) else {
            preconditionFailure("a block of the row's size holds the row")
        }
        return SQLiteSnapshot(key: key, block: block, row: at)
    }

    /// The snapshot of one record, keeping its row (`rows`), or `nil`: one step of the prepared
    /// SELECT by primary key.
    func row(_ entity: EntitySchema, _ key: Int64) throws -> SQLiteSnapshot? {
        let layout = layouts[entity.index]
        guard layout.keepsRows else { return try snapshot(entity, key).map(SQLiteSnapshot.init) }
        let statement = try db.prepare(mapping.texts[entity.index].selectByKey)
        try statement.bind(.integer(key), at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        // Room for the fixed part and 256 bytes of text: most rows fit without sizing them first
        // (two more C calls per text column); a larger one gets a block of its own size.
        let size = 1 + layout.reads.count + layout.relationshipQueries.count + 32
        var block = SQLiteRows.make(capacity: size, layout: layout, storeIdentifier: storeIdentifier)
        return try row(of: statement, layout, in: &block, size: size, file: db.path)
    }

    /// The attribute values of those records of `entity` among `keys` that the store holds, by key:
    /// one statement for any number of keys (bound as one parameter, `SQLiteDialect.keyIn`), no
    /// relationship read. A cascade's tombstones for its history, a set at a time.
    func attributeValues(_ entity: EntitySchema, keys: [Int64]) throws -> [Int64: [Value]] {
        var list = SQLValue.null
        let condition = SQLiteDialect.keyIn("t0.\(q("_pk"))", keys) { list = $0; return "?" }
        let statement = try db.prepare(mapping.texts[entity.index].select + " WHERE " + condition)
        try statement.bind(list, at: 1)
        defer { statement.reset() }
        let layout = layouts[entity.index]
        var values: [Int64: [Value]] = [:]
        values.reserveCapacity(keys.count)
        while try statement.step() {
            // No targets: a tombstone holds attributes only.
            let snapshot = try layout.snapshot(statement, storeIdentifier: storeIdentifier, file: db.path) { _, _ in [] }
            values[statement.int64(0)] = snapshot.attributeValues
        }
        return values
    }

    /// The snapshot of the row `statement` is on (selected with `columns(entity)`).
    private func snapshot(of statement: SQLiteStatement, _ layout: SQLiteRowLayout) throws -> DefaultSnapshot {
        try layout.snapshot(statement, storeIdentifier: storeIdentifier, file: db.path) { r, key in try targets(layout.entity, key, r) }
    }

    func id(_ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity, primaryKey: key)
    }

    /// The keys relationship `r` of record `key` holds now, in order for ordered relationships.
    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        try db.prepare(mapping.texts[entity.index].targets[r]).rows([.integer(key)]) { $0.int64(0) }
    }

    /// What an update needs of a record as stored, or `nil` if it does not exist: which of
    /// `attributes` differ from the columns SQLite holds (so the UPDATE writes only those and
    /// SQLite leaves the other columns' index entries alone), compared in place without building
    /// the stored values, returned; and the targets of every relationship, appended to `targets`
    /// (the record's base is `targets.count` before the call). One query for the row, one per
    /// to-many.
    ///
    /// With `oldValues` (a store that records history), each changed attribute's value as stored
    /// is kept there too, read from the same row: the history needs no read of its own.
    func storedRow(_ entity: EntitySchema, _ key: Int64, against attributes: [Value], targets: inout SQLStoredTargets, oldValues: SQLiteOldValues? = nil) throws -> [Int]? {
        // Its one parameter is bound below: no need to clear it first (`reuse`).
        let statement = try db.reuse(mapping.texts[entity.index].selectByKey)
        try statement.bind(.integer(key), at: 1)
        guard try statement.step() else {
            statement.resetKeepingBindings()
            return nil
        }
        let table = mapping.tables[entity.index]
        var changed: [Int] = []
        var column: Int32 = 1
        for (i, bits) in table.bitsColumns.enumerated() {
            if i < attributes.count {
                if !statement.holds(attribute: attributes[i], at: column, companion: bits != nil) { changed.append(i) }
            } else {
                changed.append(i)
            }
            column += bits == nil ? 1 : 2
        }
        if let oldValues {
            do {
                try oldValues.keep(key, changed, from: statement, layout: layouts[entity.index], columns: table.bitsColumns, file: db.path)
            } catch {
                statement.resetKeepingBindings()
                throw error
            }
        }
        let relationships = table.relationships
        let toOnesOnly = relationships.allSatisfy { if case .column = $0 { true } else { false } }
        if toOnesOnly {
            // Every list is a column of the row: read in place, nothing allocated.
            for _ in relationships {
                targets.append(one: statement.isNull(column) ? nil : statement.int64(column))
                column += 1
            }
            statement.resetKeepingBindings()
            return changed
        }
        var ones: [Int64?] = []
        for storage in relationships {
            guard case .column = storage else { continue }
            ones.append(statement.isNull(column) ? nil : statement.int64(column))
            column += 1
        }
        statement.resetKeepingBindings()
        // The to-many lists, each by its own query, in relationship order among the to-ones.
        var next = 0
        for (r, storage) in relationships.enumerated() {
            if case .column = storage {
                targets.append(one: ones[next])
                next += 1
            } else {
                targets.append(list: try self.targets(entity, key, r))
            }
        }
        return changed
    }

    /// Attribute `i` of a record as its column holds it (the `__bits` companion aside), or `nil` if
    /// the record does not exist: one step of the kept SELECT by key.
    func storedAttribute(_ entity: EntitySchema, _ key: Int64, _ i: Int) throws -> SQLValue? {
        let statement = try db.prepare(mapping.texts[entity.index].selectByKey)
        try statement.bind(.integer(key), at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let bits = mapping.tables[entity.index].bitsColumns
        var column: Int32 = 1
        for j in 0..<i { column += bits[j] == nil ? 1 : 2 }
        return statement.value(column)
    }

    /// Whether `entity` has a record with this key.
    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool {
        let statement = try db.prepare(mapping.texts[entity.index].exists)
        try statement.bind(.integer(key), at: 1)
        defer { statement.reset() }
        return try statement.step()
    }

    /// The snapshot of one record, or `nil`: one step of the prepared SELECT by primary key.
    /// `knownTargets` may supply a to-many's keys the caller already knows (else they are read).
    func snapshot(_ entity: EntitySchema, _ key: Int64, knownTargets: (Int) -> [Int64]? = { _ in nil }) throws -> DefaultSnapshot? {
        let statement = try db.prepare(mapping.texts[entity.index].selectByKey)
        try statement.bind(.integer(key), at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try layouts[entity.index].snapshot(statement, storeIdentifier: storeIdentifier, file: db.path) { r, key in
            try knownTargets(r) ?? targets(entity, key, r)
        }
    }
}
