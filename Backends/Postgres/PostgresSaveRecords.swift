import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// PostgreSQL's part of the shared save transaction (`SQLRecordReader`): the writer's rows through
/// `PostgresRecords` in the save's open transaction, the last committed state through the store's
/// reader connections.
struct PostgresSaveRecords: SQLRecordReader {
    typealias Dialect = PostgresDialect

    let records: PostgresRecords
    /// The store's reader connections, which see the last committed state.
    let readers: PostgresConnectionPool

    var connection: PostgresConnection { records.connection }
    var mapping: SQLMapping { records.mapping }
    var storeIdentifier: String { records.storeIdentifier }

    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool { try records.exists(entity, key) }

    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] { try records.targets(entity, key, r) }

    /// The rows `prefetchStoredRows` read for the save under way, by entity.
    let prefetched = PostgresPrefetchedRows()

    static var prefetchesStoredRows: Bool { true }

    /// One SELECT per entity: `… WHERE t0._pk = ANY(…) FOR UPDATE OF t0`, the keys sent as one
    /// text parameter (`{1,2,…}` is not needed: a comma-separated list, split on the server).
    func prefetchStoredRows(_ ids: [PersistentIdentifier]) throws {
        prefetched.clear()
        var keys: [String: [Int64]] = [:]
        for id in ids where !id.isTemporary && id.storeIdentifier == storeIdentifier { keys[id.entityName, default: []].append(id.primaryKey) }
        for (name, list) in keys {
            guard let entity = mapping.schema.entity(named: name) else { continue }
            let sql = mapping.texts[entity.index].select + " WHERE t0.\(PostgresDialect.quote("_pk")) = ANY(string_to_array(convert_from($1, 'UTF8'), ',')::int8[]) FOR UPDATE OF t0"
            let rows = try connection.query(sql, [.text(list.map(String.init).joined(separator: ","))])
            prefetched.add(entity.index, rows)
        }
    }

    /// One SELECT by key that locks the row (`FOR UPDATE`) until the save's transaction ends, its
    /// columns compared with what `SQLValueCodec` would write, then one query per to-many; or the
    /// row `prefetchStoredRows` read (locked likewise), with no query.
    ///
    /// The lock makes the compare and the write one step even against writers that do not take the
    /// store's write lock (another application on the same tables): what `checksConflicts`
    /// compared is what the row holds when the UPDATE writes it (docs/formats/postgres.md,
    /// "Isolation, retries").
    func storedRow(_ entity: EntitySchema, _ key: Int64, against attributes: [Value], targets: inout SQLStoredTargets) throws -> [Int]? {
        let rows: PostgresRows, row: Int
        if let found = prefetched.row(entity.index, key) {
            guard let found else { return nil }  // read ahead, and not there
            (rows, row) = found
        } else {
            rows = try connection.query(mapping.texts[entity.index].selectByKey.sql + " FOR UPDATE OF t0", [.integer(key)])
            guard rows.count > 0 else { return nil }
            row = 0
        }
        let table = mapping.tables[entity.index]
        var changed: [Int] = []
        var column = 1
        for (i, bits) in table.bitsColumns.enumerated() {
            if i < attributes.count {
                let (main, companion) = SQLValueCodec.encode(attributes[i])
                if rows.value(row, column) != main || (bits != nil && rows.value(row, column + 1) != companion) { changed.append(i) }
            } else {
                changed.append(i)
            }
            column += bits == nil ? 1 : 2
        }
        for (r, storage) in table.relationships.enumerated() {
            if case .column = storage {
                targets.append(one: rows.integer(row, column))
                column += 1
            } else {
                targets.append(list: try records.targets(entity, key, r))
            }
        }
        return changed
    }

    func storedAttribute(_ entity: EntitySchema, _ key: Int64, _ i: Int) throws -> SQLValue? {
        let rows = try connection.query(mapping.texts[entity.index].selectByKey.sql, [.integer(key)])
        guard rows.count > 0 else { return nil }
        let bits = mapping.tables[entity.index].bitsColumns
        var column = 1
        for j in 0..<i { column += bits[j] == nil ? 1 : 2 }
        return rows.value(0, column)
    }

    func snapshot(_ entity: EntitySchema, _ key: Int64, knownTargets: (Int) -> [Int64]?) throws -> DefaultSnapshot? {
        try records.snapshot(entity, key, knownTargets: knownTargets)
    }

    func committedRow(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLValue]? {
        try readers.withConnection(consistent: false) { reader in
            let rows = try reader.query(sql, parameters)
            guard rows.count > 0 else { return nil }
            return (0..<rows.columns).map { rows.value(0, $0) }
        }
    }

    var storeName: String { records.store }

    /// None: the fingerprint is read on every save, in the round trip that begins the save's
    /// transaction and takes the write lock (`PostgresConnection.beginWrite`).
    func schemaStamp() throws -> Int64? { nil }

    func recordedFingerprint() throws -> String {
        if let fingerprint = connection.fingerprintAtBegin {
            connection.fingerprintAtBegin = nil
            return fingerprint
        }
        let rows = try connection.query(SQLText.recordedFingerprint.sql)
        guard rows.count > 0, case .text(let fingerprint) = rows.value(0, 0) else { return "" }
        return fingerprint
    }

    func recordedSchema() throws -> RecordedSchema {
        guard let (_, recorded) = try PostgresCatalog.read(connection, namespace: readers.namespace, file: records.store) else {
            throw StrataError.metadataDisappeared(file: records.store)
        }
        return recorded
    }
}
