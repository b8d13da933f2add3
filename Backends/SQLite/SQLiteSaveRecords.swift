@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// SQLite's part of the shared save transaction (`SQLRecordReader`): the writer's rows through
/// `SQLiteRecords` (an update's stored row compared in place), the last committed state through the
/// store's reader connections (WAL).
struct SQLiteSaveRecords: SQLRecordReader {
    typealias Dialect = SQLiteDialect

    let records: SQLiteRecords
    /// The store, whose reader connections see the last committed state. Unowned: the store owns
    /// the transaction that holds this value, and outlives its saves.
    unowned let store: SQLiteStore
    /// Where an update's old values are kept for the history, when the store records it.
    let oldValues: SQLiteOldValues?

    var connection: SQLiteConnection { records.db }
    var mapping: SQLMapping { records.mapping }
    var storeIdentifier: String { records.storeIdentifier }

    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool { try records.exists(entity, key) }

    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] { try records.targets(entity, key, r) }

    func storedRow(_ entity: EntitySchema, _ key: Int64, against attributes: [Value], targets: inout SQLStoredTargets) throws -> [Int]? {
        try records.storedRow(entity, key, against: attributes, targets: &targets, oldValues: oldValues)
    }

    func storedAttribute(_ entity: EntitySchema, _ key: Int64, _ i: Int) throws -> SQLValue? { try records.storedAttribute(entity, key, i) }

    func snapshot(_ entity: EntitySchema, _ key: Int64, knownTargets: (Int) -> [Int64]?) throws -> DefaultSnapshot? {
        try records.snapshot(entity, key, knownTargets: knownTargets)
    }

    func committedRow(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLValue]? { try store.committedRow(sql, parameters) }

    var storeName: String { connection.path }

    /// The pager's data version (`SQLiteConnection.dataVersion`): after `BEGIN IMMEDIATE` it
    /// differs from the one the store noted after its last commit (`SQLiteStore.save`) exactly when
    /// another connection committed meanwhile — a migration is such a commit. One C call per save.
    func schemaStamp() throws -> Int64? { connection.dataVersion }

    func recordedFingerprint() throws -> String {
        try connection.prepare(.recordedFingerprint).rows { $0.text(0) }.first ?? ""
    }

    func recordedSchema() throws -> RecordedSchema {
        guard let (_, recorded) = try SQLiteFormat.read(connection) else {
            throw StrataError.metadataDisappeared(file: connection.path)
        }
        return recorded
    }
}
