import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Reads records and relationship values through one connection: rows selected with the shared
/// mapping's columns (`SQLMapping.Texts.columns`) become `DefaultSnapshot`s, to-many lists come
/// from the mapping's target queries.
struct PostgresRecords {
    let connection: PostgresConnection
    let mapping: SQLMapping
    let storeIdentifier: String
    /// Where errors say the store is (the configuration's redacted name).
    let store: String

    /// The columns a snapshot needs from the entity's own table, after `_pk`.
    func columns(_ entity: EntitySchema) -> [String] { mapping.texts[entity.index].columns }

    func id(_ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity, primaryKey: key)
    }

    /// The snapshots of every row of `rows`, selected with `columns(entity)`.
    func snapshots(_ rows: PostgresRows, _ entity: EntitySchema) throws -> [DefaultSnapshot] {
        var result: [DefaultSnapshot] = []
        result.reserveCapacity(rows.count)
        let layout = RowLayout(entity, mapping.tables[entity.index])
        for row in 0..<rows.count { result.append(try snapshot(rows, row, entity, layout)) }
        return result
    }

    /// How a row of an entity's table reads, worked out once per result. Why: reading the
    /// schema's and the mapping's arrays of structs per row (`entity.attributes`,
    /// `mapping.tables[i]`) copied their elements, about 60 reference-count operations a row of a
    /// scan.
    struct RowLayout {
        let types: [AttributeType]
        /// Per attribute: whether a `__bits` companion column follows its column.
        let hasBits: [Bool]
        let relationships: [SQLMapping.RelationshipStorage]
        let destinations: [String]

        init(_ entity: EntitySchema, _ table: SQLMapping.Table) {
            types = entity.attributeTypes
            hasBits = table.bitsColumns.map { $0 != nil }
            relationships = table.relationships
            destinations = entity.destinationNames
        }
    }

    /// The snapshot of row `row` of `rows` (selected with `columns(entity)`); `knownTargets` may
    /// supply a to-many's keys the caller already knows (else they are read).
    func snapshot(_ rows: PostgresRows, _ row: Int, _ entity: EntitySchema, _ layout: RowLayout, knownTargets: (Int) -> [Int64]? = { _ in nil }) throws -> DefaultSnapshot {
        let key = rows.integer(row, 0) ?? 0
        var column = 1
        var values: [Value] = []
        values.reserveCapacity(layout.types.count)
        for (i, type) in layout.types.enumerated() {
            let bits = layout.hasBits[i] ? column + 1 : nil
            values.append(try rows.attribute(row, column, bits: bits, type: type, store: store))
            column += bits == nil ? 1 : 2
        }
        var links: [RelationshipValue] = []
        links.reserveCapacity(layout.relationships.count)
        for (r, storage) in layout.relationships.enumerated() {
            if case .column = storage {
                links.append(.toOne(rows.integer(row, column).map { id(layout.destinations[r], $0) }))
                column += 1
            } else {
                links.append(.toMany(try (knownTargets(r) ?? targets(entity, key, r)).map { id(layout.destinations[r], $0) }))
            }
        }
        return DefaultSnapshot(entity: entity, persistentIdentifier: id(entity.name, key), attributes: values, relationships: links)
    }

    /// The keys relationship `r` of record `key` holds now, in order for ordered relationships.
    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        let rows = try connection.query(mapping.texts[entity.index].targets[r].sql, [.integer(key)])
        return (0..<rows.count).compactMap { rows.integer($0, 0) }
    }

    /// The snapshot of one record, or `nil`: the prepared SELECT by key.
    func snapshot(_ entity: EntitySchema, _ key: Int64, knownTargets: (Int) -> [Int64]? = { _ in nil }) throws -> DefaultSnapshot? {
        let rows = try connection.query(mapping.texts[entity.index].selectByKey.sql, [.integer(key)])
        guard rows.count > 0 else { return nil }
        return try snapshot(rows, 0, entity, RowLayout(entity, mapping.tables[entity.index]), knownTargets: knownTargets)
    }

    /// Whether `entity` has a record with this key.
    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool {
        try connection.query(mapping.texts[entity.index].exists.sql, [.integer(key)]).count > 0
    }

    /// A column's value (and its `__bits` companion) as the attribute value of `type`.
    ///
    /// - Throws: `corruptStore` when the column holds what no save writes (a URL that does not
    ///   parse, a UUID of another length, a value of another type).
    static func decode(_ value: SQLValue, bits: SQLValue, type: AttributeType, store: String) throws -> Value {
        if case .integer(let pattern) = bits {
            let d = Double(bitPattern: UInt64(bitPattern: pattern))
            return type == .date ? .date(Date(timeIntervalSinceReferenceDate: d)) : .double(d)
        }
        switch (type, value) {
        case (_, .null): return .null
        case (.bool, .integer(let v)): return .bool(v != 0)
        case (.int, .integer(let v)): return .int(v)
        case (.double, .real(let d)): return .double(d)
        case (.date, .real(let d)): return .date(Date(timeIntervalSinceReferenceDate: d))
        case (.string, .text(let s)): return .string(s)
        case (.string, .blob(let d)): return .string(String(decoding: d, as: UTF8.self))
        case (.url, .text(let s)):
            guard let url = URL(string: s) else { throw StrataError.notAURL(s, file: store) }
            return .url(url)
        case (.url, .blob(let d)): return try decode(.text(String(decoding: d, as: UTF8.self)), bits: .null, type: .url, store: store)
        case (.data, .blob(let d)): return .data(d)
        case (.uuid, .blob(let d)):
            guard d.count == 16 else { throw StrataError.notAUUID(byteCount: d.count, file: store) }
            return .uuid(d.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        default:
            throw StrataError(.corruptStore, "A \(type.rawValue) column holds \(value), which no save writes.", file: store)
        }
    }
}
