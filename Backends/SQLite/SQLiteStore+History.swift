import Foundation
@_spi(StrataEngine) import Strata

/// History on SQLite: a save that records adds one row to `strata_history` before its COMMIT; the
/// values before the save are read on a reader connection (WAL: the last committed state), the
/// values after on the writer connection (the open transaction). A small hook at the end of the
/// save: the save transaction itself is unchanged.
extension SQLiteStore {
    /// Builds and writes the save's history transaction, inside the save.
    func recordHistory(_ request: SaveRequest<DefaultSnapshot>, _ result: SaveResult<DefaultSnapshot>, db: SQLiteConnection, records: SQLiteRecords) throws {
        var recorder = HistoryRecorder(storeIdentifier: identifier, requested: HistoryRecorder.requested(request))
        try recorder.record(request, result, schema: schema) { id in
            try lookup(try schema.requireEntity(id.entityName), id)
        } after: { id in
            try records.snapshot(try schema.requireEntity(id.entityName), id.primaryKey)
        }
        try SQLiteHistory.append(db, recorder, author: request.author)
    }

    /// The recorded history, read in one read transaction (another process's commits included).
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try withReader(consistent: true) { db in try SQLiteHistory.fetch(db, query, storeIdentifier: identifier) }
    }

    /// Removes history through `token` in one write transaction.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("SQLite store", toDo: "delete history", file: configuration.url.path)
        }
        try token.requireStore(identifier)
        try writer.withLock { writer in
            let db = writer.db
            do {
                try db.execute("BEGIN IMMEDIATE")
                do {
                    try SQLiteHistory.delete(db, through: token.transaction)
                    try db.execute("COMMIT")
                    signalCommit()
                } catch {
                    try? db.execute("ROLLBACK")
                    throw error
                }
            } catch let error as SQLiteError {
                throw error.strataError(file: configuration.url.path)
            }
        }
    }
}
