import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// History on PostgreSQL (`PostgresHistory`): a save that records adds one row to `strata_history`
/// before its COMMIT; the values before the save are read on a reader connection (the last
/// committed state), the values after on the writer connection (the open transaction). A save
/// that updates one record takes the one-record path instead (`PostgresStore+SingleUpdate.swift`):
/// one statement updates the row and inserts the history row, whose old values the server puts
/// in (`prior`), in the save's one round trip.
extension PostgresStore: HistoryRecordingStore {
    /// Builds and writes the save's history transaction, inside the save.
    func recordHistory(_ request: SaveRequest<DefaultSnapshot>, _ result: SaveResult<DefaultSnapshot>, connection: PostgresConnection, records: PostgresRecords) throws {
        var recorder = HistoryRecorder(storeIdentifier: identifier, requested: HistoryRecorder.requested(request))
        try recorder.record(request, result, schema: schema) { id in
            try lookup(try schema.requireEntity(id.entityName), id)
        } after: { id in
            try records.snapshot(try schema.requireEntity(id.entityName), id.primaryKey)
        }
        try PostgresHistory.append(connection, recorder, author: request.author)
    }

    /// The recorded history, read in one read transaction (every process's commits included).
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try readers.withConnection(consistent: true) { connection in
            try PostgresHistory.fetch(connection, query, storeIdentifier: identifier, namespace: configuration.namespace, store: name)
        }
    }

    /// Removes history through `token` in one write transaction under the store's write lock.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("PostgreSQL store", toDo: "delete history", file: configuration.name)
        }
        try token.requireStore(identifier)
        try readers.withConnection(consistent: false) { connection in
            try connection.beginWrite()
            do {
                try PostgresHistory.delete(connection, through: token.transaction, namespace: configuration.namespace)
                try connection.commit()
            } catch {
                try? connection.rollback()
                throw error
            }
        }
    }
}
