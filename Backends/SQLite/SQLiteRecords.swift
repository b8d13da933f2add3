import Foundation
import Strata

/// Reads records and relationship values through one connection.
struct SQLiteRecords {
    let db: SQLiteConnection
    let mapping: SQLiteMapping
    let storeIdentifier: String
    private let q = SQLiteMapping.quote

    init(db: SQLiteConnection, mapping: SQLiteMapping, storeIdentifier: String) {
        self.db = db
        self.mapping = mapping
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
        let layout = mapping.layouts[entity.index]
        while try statement.step() { result.append(try snapshot(of: statement, layout)) }
        return result
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

    /// What a save needs of a record as stored, or `nil` if it does not exist: the attribute columns
    /// as SQLite holds them (in `columns(entity)` order, `__bits` companions included), to write
    /// only the columns an update changes, and the targets of every relationship. One query for the
    /// row, one per to-many.
    func storedRow(_ entity: EntitySchema, _ key: Int64) throws -> SQLiteStoredRow? {
        let statement = try db.prepare(mapping.texts[entity.index].selectByKey)
        try statement.bind(.integer(key), at: 1)
        guard try statement.step() else {
            statement.reset()
            return nil
        }
        let table = mapping.tables[entity.index]
        var columns: [SQLValue] = []
        columns.reserveCapacity(table.attributeColumns.count * 2)
        var column: Int32 = 1
        for bits in table.bitsColumns {
            columns.append(statement.value(column))
            if bits != nil { columns.append(statement.value(column + 1)) }
            column += bits == nil ? 1 : 2
        }
        var toOnes: [Int64?] = []
        for storage in table.relationships {
            if case .column = storage {
                toOnes.append(statement.isNull(column) ? nil : statement.int64(column))
                column += 1
            }
        }
        statement.reset()
        var next = 0
        var targets: [[Int64]] = []
        targets.reserveCapacity(table.relationships.count)
        for (r, storage) in table.relationships.enumerated() {
            if case .column = storage {
                targets.append(toOnes[next].map { [$0] } ?? [])
                next += 1
            } else {
                targets.append(try self.targets(entity, key, r))
            }
        }
        return SQLiteStoredRow(columns: columns, targets: targets)
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
    func snapshot(_ entity: EntitySchema, _ key: Int64) throws -> DefaultSnapshot? {
        let statement = try db.prepare(mapping.texts[entity.index].selectByKey)
        try statement.bind(.integer(key), at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try snapshot(of: statement, mapping.layouts[entity.index])
    }
}

/// A record as a save finds it before changing it (`SQLiteRecords.storedRow`).
struct SQLiteStoredRow {
    /// The attribute columns, `__bits` companions included, as SQLite holds them.
    let columns: [SQLValue]
    /// Per relationship, the keys it holds.
    let targets: [[Int64]]
}
