import CSQLite
import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// How a row selected with `SQLiteMapping.Texts.columns` becomes a `DefaultSnapshot`, worked out once
/// per entity when the mapping is built.
///
/// Why: a scan decodes every row, and deciding per row and per column what the column is (reading
/// the table description, the attribute types and the destination names through the schema, each a
/// retained array) cost more than SQLite's own work for the row. (`Array(unsafeUninitializedCapacity:)`
/// was tried and is slower here: it reached the standard library unspecialized, with generic
/// metadata lookups per array; limit: Benchmarks/Thresholds/sqlite-scan.txt.) The decoder reserves the two arrays of the
/// snapshot at their final size and reads a `__bits` companion only where the writer can have set
/// it (docs/formats/sqlite.md: it is NULL unless the main column is NULL for NaN or 0 for −0).
///
/// It reads a column's value first and asks SQLite for the column's storage class only when the
/// value read cannot tell NULL apart (`SQLiteColumnReads`): an integer or real read of NULL gives
/// 0, a text read gives no pointer. Asking first cost six `sqlite3_column_type` calls per row of the
/// workload's items for answers the reads already gave.
struct SQLiteRowLayout: Sendable {
    /// How one attribute's column (and companion) is read.
    enum Read: Sendable {
        case bool, int, string
        /// A REAL column followed by its `__bits` companion.
        case double, date
        /// Read through `SQLiteValueCodec.decodePresent` after a type check (blobs, URLs, and
        /// doubles or dates without a companion).
        case checked(AttributeType)
    }

    let entity: EntitySchema
    /// Per attribute, in order.
    let reads: [Read]
    /// Per relationship: `-1` for a to-one read from the next column, else the index passed to
    /// `targets` (a to-many read by its own query).
    let relationshipQueries: [Int]
    /// Per relationship, the destination entity's name.
    let destinations: [String]
    /// Whether a fetched row is kept as SQLite gave it (`SQLiteRows`): every property has a bit in
    /// the row's null mask, so at most 64 attributes and relationships.
    let keepsRows: Bool

    init(_ table: SQLiteMapping.Table) {
        entity = table.entity
        reads = zip(table.entity.attributeTypes, table.bitsColumns).map { type, bits in
            switch type {
            case .bool: .bool
            case .int: .int
            case .string: .string
            case .double where bits != nil: .double
            case .date where bits != nil: .date
            default: .checked(type)
            }
        }
        relationshipQueries = table.relationships.enumerated().map { r, storage in
            if case .column = storage { return -1 }
            return r
        }
        destinations = table.entity.destinationNames
        keepsRows = reads.count + relationshipQueries.count <= 64
    }

    /// Attribute `i` of the row `s` is on, its column at `column`: an update's old value, read from
    /// the row the save compares in place (`SQLiteRecords.storedRow`) when the store records
    /// history. The same values as `snapshot`, whose loop stays as it is (a shared helper there cost
    /// fetch-by-id 0.5%).
    func attribute(_ i: Int, of s: SQLiteStatement, at column: Int32, file: String) throws -> Value {
        let row = SQLiteColumnReads(s.handle)
        switch reads[i] {
        case .double: return row.real(column).map { .double($0) } ?? .null
        case .date: return row.real(column).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        default: return row.isNull(column) ? .null : try SQLiteValueCodec.decodePresent(s, column, type: entity.attributeTypes[i], file: file)
        }
    }

    /// The snapshot of the row `s` is on; `targets` reads a to-many's keys (a second statement).
    func snapshot(_ s: SQLiteStatement, storeIdentifier: String, file: @autoclosure () -> String, targets: (Int, Int64) throws -> [Int64]) throws -> DefaultSnapshot {
        let row = SQLiteColumnReads(s.handle)
        let key = row.int64(0)
        var column: Int32 = 1
        var values: [Value] = []
        values.reserveCapacity(reads.count)
        for read in reads {
            switch read {
            case .bool:
                values.append(row.int64OrNil(column).map { .bool($0 != 0) } ?? .null)
            case .int:
                values.append(row.int64OrNil(column).map { .int($0) } ?? .null)
            case .string:
                values.append(try row.text(column, sql: s.sql).map { .string($0) } ?? .null)
            case .double:
                values.append(row.real(column).map { .double($0) } ?? .null)
                column += 1
            case .date:
                values.append(row.real(column).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null)
                column += 1
            case .checked(let type):
                values.append(row.isNull(column) ? .null : try SQLiteValueCodec.decodePresent(s, column, type: type, file: file()))
            }
            column += 1
        }
        var links: [RelationshipValue] = []
        let count = relationshipQueries.count
        links.reserveCapacity(count)
        for r in 0..<count {
            let query = relationshipQueries[r]
            if query < 0 {
                links.append(.toOne(row.int64OrNil(column).map { PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: destinations[r], primaryKey: $0) }))
                column += 1
            } else {
                let destination = destinations[r]
                links.append(.toMany(try targets(query, key).map { PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: destination, primaryKey: $0) }))
            }
        }
        return DefaultSnapshot(entity: entity, persistentIdentifier: PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, primaryKey: key), attributes: values, relationships: links)
    }
}
