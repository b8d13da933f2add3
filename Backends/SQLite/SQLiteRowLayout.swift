import CSQLite
import Foundation
import Strata

/// How a row selected with `SQLiteMapping.Texts.columns` becomes a `DefaultSnapshot`, worked out once
/// per entity when the mapping is built.
///
/// Why: a scan decodes every row, and deciding per row and per column what the column is (reading
/// the table description, the attribute types and the destination names through the schema, each a
/// retained array) cost more than SQLite's own work for the row. (`Array(unsafeUninitializedCapacity:)`
/// was tried and is slower here: it reached the standard library unspecialized, about 780
/// instructions per array in generic metadata lookups.) The decoder asks SQLite for each
/// column's type once, reserves the two arrays of the snapshot at their final size, and reads
/// a `__bits` companion only where the writer can have set it (docs/formats/sqlite.md: it is NULL
/// unless the main column is NULL for NaN or 0 for −0).
struct SQLiteRowLayout: Sendable {
    /// One attribute: its type and whether a `__bits` column follows it.
    struct Attribute: Sendable {
        let type: AttributeType
        let hasBits: Bool
    }

    /// One relationship: a to-one read from the next column, or a to-many read by its own query.
    enum Relationship: Sendable {
        case column(destination: String)
        case query(index: Int, destination: String)
    }

    let entity: EntitySchema
    let attributes: [Attribute]
    let relationships: [Relationship]

    init(_ table: SQLiteMapping.Table) {
        entity = table.entity
        attributes = zip(table.entity.attributeTypes, table.bitsColumns).map { Attribute(type: $0, hasBits: $1 != nil) }
        relationships = table.relationships.enumerated().map { r, storage in
            let destination = table.entity.destinationNames[r]
            if case .column = storage { return .column(destination: destination) }
            return .query(index: r, destination: destination)
        }
    }

    /// The snapshot of the row `s` is on; `targets` reads a to-many's keys (a second statement).
    func snapshot(_ s: SQLiteStatement, storeIdentifier: String, file: @autoclosure () -> String, targets: (Int, Int64) throws -> [Int64]) throws -> DefaultSnapshot {
        let key = s.int64(0)
        var column: Int32 = 1
        var values: [Value] = []
        values.reserveCapacity(attributes.count)
        for attribute in attributes {
            values.append(attribute.hasBits ? Self.decodeReal(s, column, type: attribute.type) : try Self.decode(s, column, type: attribute.type, file: file()))
            column += attribute.hasBits ? 2 : 1
        }
        var links: [RelationshipValue] = []
        links.reserveCapacity(relationships.count)
        for relationship in relationships {
            switch relationship {
            case .column(let destination):
                links.append(.toOne(s.type(column) == SQLITE_NULL ? nil : PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: destination, primaryKey: s.int64(column))))
                column += 1
            case .query(let r, let destination):
                links.append(.toMany(try targets(r, key).map { PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: destination, primaryKey: $0) }))
            }
        }
        return DefaultSnapshot(entity: entity, persistentIdentifier: PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, primaryKey: key), attributes: values, relationships: links)
    }

    /// A double or date from its REAL column and, when that holds NULL (NaN) or 0 (maybe −0), its
    /// `__bits` companion in the next column, which wins when set.
    private static func decodeReal(_ s: SQLiteStatement, _ column: Int32, type: AttributeType) -> Value {
        let kind = s.type(column)
        var d = kind == SQLITE_NULL ? 0 : s.double(column)
        if kind == SQLITE_NULL || d == 0 {
            if s.type(column + 1) != SQLITE_NULL {
                d = Double(bitPattern: UInt64(bitPattern: s.int64(column + 1)))
            } else if kind == SQLITE_NULL {
                return .null
            }
        }
        return type == .date ? .date(Date(timeIntervalSinceReferenceDate: d)) : .double(d)
    }

    /// Any other attribute from its column, asking SQLite for the column's type once.
    private static func decode(_ s: SQLiteStatement, _ column: Int32, type: AttributeType, file: @autoclosure () -> String) throws -> Value {
        guard s.type(column) != SQLITE_NULL else { return .null }
        return try SQLiteValueCodec.decodePresent(s, column, type: type, file: file())
    }
}
