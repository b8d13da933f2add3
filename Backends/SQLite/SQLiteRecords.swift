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
    func snapshots<S: DataStoreSnapshot>(_ statement: SQLiteStatement, _ entity: EntitySchema, parameters: [SQLValue]) throws -> [S] {
        let table = mapping.tables[entity.index]
        let destinations = entity.destinationIndices.map { mapping.schema.entities[$0].name }
        var result: [S] = []
        try statement.bind(parameters)
        defer { statement.reset() }
        while try statement.step() {
            let key = statement.int64(0)
            var column: Int32 = 1
            var attributes: [Value] = []
            attributes.reserveCapacity(entity.attributes.count)
            for (i, type) in entity.attributeTypes.enumerated() {
                let bits: Int32? = table.bitsColumns[i] == nil ? nil : column + 1
                attributes.append(try SQLiteValueCodec.decode(statement, column, bits: bits, type: type, file: db.path))
                column += bits == nil ? 1 : 2
            }
            var relationships: [RelationshipValue] = []
            relationships.reserveCapacity(table.relationships.count)
            for (i, storage) in table.relationships.enumerated() {
                if case .column = storage {
                    relationships.append(.toOne(statement.isNull(column) ? nil : id(destinations[i], statement.int64(column))))
                    column += 1
                } else {
                    relationships.append(.toMany(try targets(entity, key, i).map { id(destinations[i], $0) }))
                }
            }
            result.append(S(entity: entity, persistentIdentifier: id(entity.name, key), attributes: attributes, relationships: relationships))
        }
        return result
    }

    func id(_ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity, primaryKey: key)
    }

    /// The keys relationship `r` of record `key` holds now, in order for ordered relationships.
    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        try db.prepare(mapping.texts[entity.index].targets[r]).rows([.integer(key)]) { $0.int64(0) }
    }

    /// The stored targets of every relationship of a record, or `nil` if it does not exist: one
    /// query for all to-one columns, one per to-many.
    func storedTargets(_ entity: EntitySchema, _ key: Int64) throws -> [[Int64]]? {
        let statement = try db.prepare(mapping.texts[entity.index].toOnes)
        try statement.bind(.integer(key), at: 1)
        guard try statement.step() else {
            statement.reset()
            return nil
        }
        var column: Int32 = 1
        var toOnes: [Int64?] = []
        for storage in mapping.tables[entity.index].relationships {
            if case .column = storage {
                toOnes.append(statement.isNull(column) ? nil : statement.int64(column))
                column += 1
            }
        }
        statement.reset()
        var next = 0
        var result: [[Int64]] = []
        for (r, storage) in mapping.tables[entity.index].relationships.enumerated() {
            if case .column = storage {
                result.append(toOnes[next].map { [$0] } ?? [])
                next += 1
            } else {
                result.append(try targets(entity, key, r))
            }
        }
        return result
    }

    /// Whether `entity` has a record with this key.
    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool {
        let statement = try db.prepare(mapping.texts[entity.index].exists)
        try statement.bind(.integer(key), at: 1)
        defer { statement.reset() }
        return try statement.step()
    }

    /// The snapshot of one record, or `nil`.
    func snapshot(_ entity: EntitySchema, _ key: Int64) throws -> DefaultSnapshot? {
        let rows: [DefaultSnapshot] = try snapshots(try db.prepare(mapping.texts[entity.index].selectByKey), entity, parameters: [.integer(key)])
        return rows.first
    }
}
