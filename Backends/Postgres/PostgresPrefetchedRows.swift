import Foundation

/// The rows of the records a save updates, read ahead in one statement per entity
/// (`PostgresSaveRecords.prefetchStoredRows`) and answered from by `storedRow`: a save updating
/// 10,000 records read them in 10,000 round trips before. Held by the save's records reader, used
/// on the writer's thread only, emptied when the save ends (`PostgresStore.saveOnce`).
final class PostgresPrefetchedRows: @unchecked Sendable {
    /// Per entity index: the rows read, and each key's row in them.
    private var entities: [Int: (rows: PostgresRows, index: [Int64: Int])] = [:]

    /// Keeps the rows read for entity `entity` (`_pk` in column 0).
    func add(_ entity: Int, _ rows: PostgresRows) {
        var index: [Int64: Int] = [:]
        index.reserveCapacity(rows.count)
        for row in 0..<rows.count { if let key = rows.integer(row, 0) { index[key] = row } }
        entities[entity] = (rows, index)
    }

    /// nil when entity `entity` was not read ahead; `.some(nil)` when it was and `key` was not
    /// among its rows (the record does not exist); else the rows and the row.
    func row(_ entity: Int, _ key: Int64) -> (rows: PostgresRows, row: Int)?? {
        guard !entities.isEmpty, let read = entities[entity] else { return nil }
        guard let row = read.index[key] else { return .some(nil) }
        return .some((read.rows, row))
    }

    /// Forgets everything read.
    func clear() {
        if !entities.isEmpty { entities = [:] }
    }
}
