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
    func columns(_ entity: EntitySchema) -> [String] {
        let table = mapping.tables[entity.index]
        var columns: [String] = []
        for (i, c) in table.attributeColumns.enumerated() {
            columns.append(c)
            if let b = table.bitsColumns[i] { columns.append(b) }
        }
        for storage in table.relationships { if case .column(let c, _) = storage { columns.append(c) } }
        return columns
    }

    /// Builds snapshots from rows selected with `columns(entity)`.
    func snapshots<S: DataStoreSnapshot>(_ statement: SQLiteStatement, _ entity: EntitySchema, parameters: [SQLValue]) throws -> [S] {
        let table = mapping.tables[entity.index]
        var rows: [(Int64, [Value], [Int64?])] = []
        try statement.bind(parameters)
        while try statement.step() {
            var column: Int32 = 1
            var attributes: [Value] = []
            attributes.reserveCapacity(entity.attributes.count)
            for (i, a) in entity.attributes.enumerated() {
                let bits: Int32? = table.bitsColumns[i] == nil ? nil : column + 1
                attributes.append(try SQLiteValueCodec.decode(statement, column, bits: bits, type: a.type, file: db.path))
                column += bits == nil ? 1 : 2
            }
            var toOne: [Int64?] = []
            for storage in table.relationships {
                if case .column = storage {
                    toOne.append(statement.isNull(column) ? nil : statement.int64(column))
                    column += 1
                }
            }
            rows.append((statement.int64(0), attributes, toOne))
        }
        statement.reset()
        return try rows.map { key, attributes, toOne in
            var next = 0
            var relationships: [RelationshipValue] = []
            for (i, storage) in table.relationships.enumerated() {
                let destination = mapping.schema.entities[entity.destinationIndices[i]].name
                switch storage {
                case .column:
                    relationships.append(.toOne(toOne[next].map { id(destination, $0) }))
                    next += 1
                default:
                    relationships.append(.toMany(try targets(entity, key, i).map { id(destination, $0) }))
                }
            }
            return S(entity: entity, persistentIdentifier: id(entity.name, key), attributes: attributes, relationships: relationships)
        }
    }

    func id(_ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity, primaryKey: key)
    }

    /// The keys relationship `r` of record `key` holds now, in order for ordered relationships.
    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        switch mapping.tables[entity.index].relationships[r] {
        case .column(let column, _):
            let rows = try db.prepare("SELECT \(q(column)) FROM \(q(mapping.tables[entity.index].name)) WHERE \(q("_pk")) = ?").rows([.integer(key)]) { $0.isNull(0) ? nil : $0.int64(0) }
            return rows.compactMap { $0 }
        case .inverseColumn(let table, let column, let order):
            let sort = order.map { "\(q($0)), " } ?? ""
            return try db.prepare("SELECT \(q("_pk")) FROM \(q(mapping.tables[table].name)) WHERE \(q(column)) = ? ORDER BY \(sort)\(q("_pk"))").rows([.integer(key)]) { $0.int64(0) }
        case .join(let index, let mine, let other, let order):
            let sort = order.map { "\(q($0)), " } ?? ""
            return try db.prepare("SELECT \(q(other)) FROM \(q(mapping.joins[index].name)) WHERE \(q(mine)) = ? ORDER BY \(sort)\(q(other))").rows([.integer(key)]) { $0.int64(0) }
        }
    }

    /// Whether `entity` has a record with this key.
    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool {
        try !db.prepare("SELECT 1 FROM \(q(mapping.tables[entity.index].name)) WHERE \(q("_pk")) = ?").rows([.integer(key)]) { _ in true }.isEmpty
    }

    /// The snapshot of one record, or `nil`.
    func snapshot(_ entity: EntitySchema, _ key: Int64) throws -> DefaultSnapshot? {
        let columns = self.columns(entity).map { "t0.\(q($0))" }
        let sql = "SELECT t0.\(q("_pk"))\(columns.isEmpty ? "" : ", " + columns.joined(separator: ", ")) FROM \(q(mapping.tables[entity.index].name)) AS t0 WHERE t0.\(q("_pk")) = ?"
        let rows: [DefaultSnapshot] = try snapshots(try db.prepare(sql), entity, parameters: [.integer(key)])
        return rows.first
    }
}
