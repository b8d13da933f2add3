import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// A whole staged migration path — several schema changes and the code of custom stages between
/// them — in one SQLite transaction (`StateMigratable`): a crash or an error at any point leaves
/// the file at the old version, and no save of another connection lands between the read and the
/// write (the transaction holds SQLite's write lock from `BEGIN IMMEDIATE` to `COMMIT`).
///
/// Inside the transaction it reads every record of the source schema (keys, links and the
/// `sqlite_sequence` key counters) into the core's engine, lets `rewrite` run the stages there,
/// then drops the old tables, creates the destination's, writes every record with its key, sets
/// the key counters, creates the indexes (a unique one over duplicates is
/// `uniqueConstraintViolation` naming two records) and records the destination schema.
///
/// Cost: the store is read and written once and held in memory once, where a single lightweight
/// stage (`SQLiteMigration`) alters the tables in place. The history table is kept as it is, as
/// by every other migration.
enum SQLiteStateMigration {
    private static let q = SQLiteMapping.quote

    /// Migrates the file at `path` from `source` to `destination`: its records become
    /// `rewrite(records)`.
    ///
    /// - Throws: `ioFailure` for a missing file, `storeLocked` while another connection writes,
    ///   `schemaMismatch` when the file is not at `source` or `rewrite`'s result is not at
    ///   `destination`, and `rewrite`'s errors — the file unchanged after any of them.
    static func run(path: String, busyTimeout: Duration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try SQLiteMigration.inTransaction(path: path, busyTimeout: busyTimeout, from: source) { db, identifier in
            let old = try SQLiteMapping(schema: source), new = try SQLiteMapping(schema: destination)
            // Read and rewrite everything first: every refusal comes before the first write.
            let next = try rewrite(try load(db, old, storeIdentifier: identifier))
            try next.requireSchema(destination)
            try write(next, db, replacing: old, with: new)
            try SQLiteFormat.writeRecord(db, schema: destination, inTransaction: true)
        }
    }

    /// Every record of the mapping's schema, with the stored key counters.
    private static func load(_ db: SQLiteConnection, _ mapping: SQLiteMapping, storeIdentifier: String) throws -> StoreState {
        let schema = mapping.schema
        let records = SQLiteRecords(db: db, mapping: mapping, layouts: mapping.tables.map(SQLiteRowLayout.init), storeIdentifier: storeIdentifier)
        var counters: [String: Int64] = [:]
        if try db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").rows([], { $0.int64(0) }).first == 1 {
            for (name, seq) in try db.prepare("SELECT name, seq FROM sqlite_sequence").rows([], { ($0.text(0), $0.int64(1)) }) {
                counters[name] = max(counters[name] ?? 0, seq)
            }
        }
        var state = StoreState(schema: schema, storeIdentifier: storeIdentifier)
        for entity in schema.entities {
            for snapshot in try records.snapshots(try db.prepare(mapping.texts[entity.index].select), entity, parameters: []) {
                let links = snapshot.relationships.map { value -> Link in
                    switch value {
                    case .toOne(let id): .one(id?.primaryKey)
                    case .toMany(let ids): .many(ids.map(\.primaryKey))
                    }
                }
                try state.load(entity, key: snapshot.persistentIdentifier.primaryKey, record: StoredRecord(attributes: snapshot.attributes, links: links))
            }
            if let seq = counters[mapping.tables[entity.index].name], seq < StoreState.keyLimit {
                state.setNextPrimaryKey(entity, atLeast: seq + 1)
            }
        }
        try state.finishLoading()
        return state
    }

    /// Replaces the tables of `old` with those of `new`, holding `state`.
    private static func write(_ state: StoreState, _ db: SQLiteConnection, replacing old: SQLiteMapping, with new: SQLiteMapping) throws {
        // Dropping a table drops its indexes and its `sqlite_sequence` row.
        for name in old.tables.map(\.name) + old.joins.map(\.name) { try db.execute("DROP TABLE \(q(name))") }
        let statements = new.ddl()
        for statement in statements where statement.hasPrefix("CREATE TABLE") { try db.execute(statement) }
        for entity in new.schema.entities { try writeRecords(entity, state, db, new) }
        for (index, join) in new.joins.enumerated() { try writeJoin(index, join, state, db, new) }
        for entity in new.schema.entities {
            let name = new.tables[entity.index].name
            try db.prepare("DELETE FROM sqlite_sequence WHERE name = ?").run([.text(name)])
            let next = state.nextPrimaryKey(entity)
            if next > 1 { try db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run([.text(name), .integer(next - 1)]) }
        }
        for statement in statements where !statement.hasPrefix("CREATE TABLE") {
            try SQLiteMigration.createIndex(statement, db: db, mapping: new, storeIdentifier: state.storeIdentifier)
        }
    }

    /// The rows of one entity's table: key, attributes (with `__bits`), to-one columns (with the
    /// position in the target's ordered list where the inverse is ordered).
    private static func writeRecords(_ entity: EntitySchema, _ state: StoreState, _ db: SQLiteConnection, _ mapping: SQLiteMapping) throws {
        let table = mapping.tables[entity.index]
        var columns = ["_pk"]
        for (i, column) in table.attributeColumns.enumerated() {
            columns.append(column)
            if let bits = table.bitsColumns[i] { columns.append(bits) }
        }
        // Per relationship stored in a column with an order: each record's position in its
        // target's list (the inverse ordered to-many).
        var positions: [Int: [Int64: Int64]] = [:]
        for (r, storage) in table.relationships.enumerated() {
            guard case .column(let column, let order) = storage else { continue }
            columns.append(column)
            guard let order else { continue }
            columns.append(order)
            let destination = mapping.schema.entities[entity.destinationIndices[r]]
            let inverse = entity.inverseIndices[r]
            var at: [Int64: Int64] = [:]
            state.forEachRecord(destination) { _, record in
                for (position, member) in record.links[inverse].keys.enumerated() { at[member] = Int64(position) }
                return true
            }
            positions[r] = at
        }
        let insert = try db.prepare("INSERT INTO \(q(table.name)) (\(columns.map(q).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        try state.forEachRecord(entity) { key, record in
            var values: [SQLValue] = [.integer(key)]
            values.reserveCapacity(columns.count)
            for (i, value) in record.attributes.enumerated() {
                let (main, companion) = SQLValueCodec.encode(value)
                values.append(main)
                if table.bitsColumns[i] != nil { values.append(companion) }
            }
            for (r, storage) in table.relationships.enumerated() {
                guard case .column(_, let order) = storage else { continue }
                let target = record.links[r].keys.first
                values.append(target.map { .integer($0) } ?? .null)
                if order != nil { values.append(target == nil ? .null : positions[r]?[key].map { .integer($0) } ?? .null) }
            }
            try insert.run(values)
            return true
        }
    }

    /// The rows of one join table: one per edge of the relationship whose column is the join's
    /// left one (a symmetric relationship lists each edge from both ends, its two rows), with
    /// the edge's position in each ordered side's list.
    private static func writeJoin(_ index: Int, _ join: SQLiteMapping.JoinTable, _ state: StoreState, _ db: SQLiteConnection, _ mapping: SQLiteMapping) throws {
        var left: (EntitySchema, Int)?, right: (EntitySchema, Int)?
        for table in mapping.tables {
            for (r, storage) in table.relationships.enumerated() {
                guard case .join(index, let mine, _, _) = storage else { continue }
                if mine == join.left { left = (table.entity, r) } else if mine == join.right { right = (table.entity, r) }
            }
        }
        guard let (entity, r) = left else { return }
        // The right side's positions, per right record and left member.
        var rightPositions: [Int64: [Int64: Int64]] = [:]
        if join.rightOrder != nil, let (other, s) = right {
            state.forEachRecord(other) { key, record in
                var at: [Int64: Int64] = [:]
                for (position, member) in record.links[s].keys.enumerated() { at[member] = Int64(position) }
                rightPositions[key] = at
                return true
            }
        }
        var columns = [join.left, join.right]
        if let o = join.leftOrder { columns.append(o) }
        if let o = join.rightOrder { columns.append(o) }
        let insert = try db.prepare("INSERT INTO \(q(join.name)) (\(columns.map(q).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        try state.forEachRecord(entity) { key, record in
            for (position, target) in record.links[r].keys.enumerated() {
                var values: [SQLValue] = [.integer(key), .integer(target)]
                if join.leftOrder != nil { values.append(.integer(Int64(position))) }
                if join.rightOrder != nil { values.append(rightPositions[target]?[key].map { .integer($0) } ?? .null) }
                try insert.run(values)
            }
            return true
        }
    }
}
