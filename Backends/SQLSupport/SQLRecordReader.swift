@_spi(StrataEngine) import Strata

/// What a SQL backend gives the shared save transaction (`SQLSaveTransaction`) besides its
/// connection and dialect: how it reads rows on the writer connection, which is where a backend's
/// speed is (SQLite compares a stored row with the update in place, without building values), and
/// the last committed state (a reader connection), which a failed save asks who held a unique value.
///
/// Everything the save writes, it writes itself through `connection` in `Dialect`; a reader only
/// reads. The answers are of the open write transaction unless said otherwise. Implemented by a
/// struct (SQLite: `SQLiteSaveRecords`), so the save, generic over it, is specialised on it.
@usableFromInline package protocol SQLRecordReader {
    /// The backend's connection.
    associatedtype Connection: SQLConnection
    /// The backend's spelling of SQL.
    associatedtype Dialect: SQLDialect

    /// The writer connection, in the save's open transaction.
    var connection: Connection { get }
    /// The store's mapping (written in `Dialect`).
    var mapping: SQLMapping { get }
    /// The identifier in every permanent identifier of the store.
    var storeIdentifier: String { get }

    /// Whether `entity` has a record with this key.
    func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool

    /// The keys relationship `r` of record `key` holds now, in order for ordered relationships.
    func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64]

    /// What an update needs of a record as stored, or `nil` if it does not exist: which of
    /// `attributes` differ from the stored columns (as `SQLValueCodec.encode` would write them),
    /// returned, so the UPDATE writes only those; and the targets of every relationship, appended
    /// to `targets` in relationship order (the record's base is `targets.count` before the call).
    func storedRow(_ entity: EntitySchema, _ key: Int64, against attributes: [Value], targets: inout SQLStoredTargets) throws -> [Int]?

    /// Whether `prefetchStoredRows` reads anything: a backend on a server, where each
    /// `storedRow` run alone is a round trip (PostgreSQL). SQLite, where a read costs none: false
    /// (the default), and the save does not call it.
    static var prefetchesStoredRows: Bool { get }

    /// Reads the rows of the records `ids` names (those of this store) in as few statements as
    /// it can, before a save's updates ask `storedRow` for them one by one, which then answers
    /// from what was read. Read in the open write transaction, as `storedRow` reads, with the same
    /// locks; forgotten when the save ends. Called only when `prefetchesStoredRows`, for a save
    /// that updates more than one record.
    func prefetchStoredRows(_ ids: [PersistentIdentifier]) throws

    /// Attribute `i` of a record as its column holds it (the `__bits` companion aside), or `nil` if
    /// the record does not exist.
    func storedAttribute(_ entity: EntitySchema, _ key: Int64, _ i: Int) throws -> SQLValue?

    /// The snapshot of one record, or `nil`. `knownTargets` may supply a to-many's keys the caller
    /// already knows (else they are read).
    func snapshot(_ entity: EntitySchema, _ key: Int64, knownTargets: (Int) -> [Int64]?) throws -> DefaultSnapshot?

    /// The first row of `sql` (parameters in `Dialect`'s placeholders) in the last committed state,
    /// not the open transaction's: a failed save's unique fault names the record that held the values
    /// before the save.
    func committedRow(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLValue]?

    /// Where errors say the store is (a path, or a server's redacted name).
    var storeName: String { get }

    /// A cheap stamp of the store as the open write transaction sees it, which changes whenever
    /// another connection committed since the last save passed the check (SQLite: the pager's data
    /// version, which the store notes after each commit), or nil when the backend has none: the
    /// save reads `recordedFingerprint()` only when the stamp changed, or on every save when there
    /// is no stamp (SQLSaveTransaction+Schema.swift).
    func schemaStamp() throws -> Int64?

    /// The fingerprint of the schema the store records, in the open write transaction.
    func recordedFingerprint() throws -> String

    /// The schema and version the store records, in the open write transaction (read to name both
    /// versions when a save is refused).
    func recordedSchema() throws -> RecordedSchema
}

extension SQLRecordReader {
    /// Reads nothing ahead (`SQLRecordReader.prefetchesStoredRows`).
    @inlinable package static var prefetchesStoredRows: Bool { false }

    /// Never called: `prefetchesStoredRows` is false.
    @inlinable package func prefetchStoredRows(_ ids: [PersistentIdentifier]) throws {}

    /// The snapshot of one record, every list read.
    @inlinable
    package func snapshot(_ entity: EntitySchema, _ key: Int64) throws -> DefaultSnapshot? {
        try snapshot(entity, key, knownTargets: { _ in nil })
    }

    /// The permanent identifier of record `key` of the entity named `entity`.
    @inlinable
    package func id(_ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity, primaryKey: key)
    }
}
