import CSQLite
import Foundation
@_spi(StrataEngine) import Strata
import Synchronization
import StrataSQLSupport

/// The SQLite backend, the embedded default: real tables, native constraints, queries in SQL.
///
/// The schema becomes tables a person can read in the `sqlite3` shell (`docs/formats/sqlite.md`).
/// A save is one `BEGIN IMMEDIATE … COMMIT` transaction on the writer connection; fetches run on a
/// pool of reader connections, each inside a read transaction, so with WAL they see the last
/// committed state while a save runs, in this process or another. Statements are prepared once per
/// connection and reused; values are always bound, never pasted into SQL.
public final class SQLiteStore: HistoryRecordingStore {
    /// Snapshots keep a fetched row as SQLite gave it and decode values when they are read.
    public typealias Snapshot = SQLiteSnapshot

    /// The configuration the store was opened with.
    public let configuration: SQLiteStoreConfiguration
    /// The identifier in every permanent identifier, kept in the file's metadata.
    public let identifier: String
    let mapping: SQLiteMapping
    /// Per entity, how a selected row becomes a snapshot (SQLite's reading of the shared mapping).
    let layouts: [SQLiteRowLayout]
    let writer: Mutex<Writer>
    private let saveStart: SQLSaveStart
    /// The write-ahead log's path, which `signalCommit` touches after every commit (`URL.path`
    /// decodes the URL each time: 4,400 instructions, 10% of an update-one save).
    let walPath: String
    private let readers = Mutex<[SQLiteConnection]>([])

    /// Opens the database file, creating its tables if the file is missing or empty.
    ///
    /// - Throws: `corruptStore` for a file that is not SQLite or holds someone else's tables,
    ///   `unsupported` for a newer format, `schemaMismatch` for another schema — each without
    ///   modifying the file.
    public init(_ configuration: SQLiteStoreConfiguration) throws {
        self.configuration = configuration
        let mapping = try SQLiteMapping(schema: configuration.schema)
        self.mapping = mapping
        self.layouts = mapping.tables.map(SQLiteRowLayout.init)
        self.saveStart = SQLSaveStart(mapping)
        let path = configuration.url.path
        self.walPath = path + "-wal"
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if configuration.isReadOnly, size ?? 0 == 0 {
            throw StrataError(.ioFailure, "There is no SQLite store at this path; a read-only open never creates one.", file: path)
        }
        let db = try SQLiteConnection(path: path, create: size == nil, readOnly: configuration.isReadOnly, busyTimeout: configuration.busyTimeout)
        let inspected = size.flatMap { $0 > 0 ? $0 : nil } == nil ? nil : try SQLiteFormat.inspect(db, schema: configuration.schema)
        var identifier = inspected?.0
        if inspected != nil { try SQLiteFormat.checkKeys(db, mapping: mapping) }
        if inspected?.1 == .rewriteRecord, !configuration.isReadOnly {
            do {
                try SQLiteFormat.writeRecord(db, schema: configuration.schema)
            } catch let error as SQLiteError {
                throw error.strataError(file: path)
            }
        }
        if identifier == nil {
            let fresh = PersistentIdentifier.makeStoreIdentifier()
            do {
                try SQLiteFormat.create(db, mapping: mapping, storeIdentifier: fresh)
            } catch let error as SQLiteError {
                throw error.strataError(file: path)
            }
            identifier = fresh
        }
        try db.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = \(configuration.durability == .powerLoss ? "FULL" : "NORMAL")")
        if configuration.recordsHistory, !configuration.isReadOnly {
            do { try SQLiteHistory.createTable(db) } catch let error as SQLiteError { throw error.strataError(file: path) }
        }
        if !configuration.isReadOnly {
            // Every update reads its row by key on the writer first: compiled now, as the other
            // fixed statements are on first use, so the first update is not the slow one (it
            // would compile it). A failure here resurfaces, reported, in the save.
            for texts in mapping.texts { _ = try? db.prepare(texts.selectByKey) }
            // And the first save's check of the recorded schema (SQLSaveTransaction+Schema.swift).
            _ = try? db.prepare(.recordedFingerprint)
        }
        self.identifier = identifier!
        self.writer = Mutex(Writer(db: db))
    }

    /// The writer connection and the save transaction every save reuses
    /// (`SQLSaveTransaction+Reuse`), made by the first save.
    struct Writer: ~Copyable {
        let db: SQLiteConnection
        var transaction: SQLSaveTransaction<SQLiteSaveRecords>?
        /// The newest history number this writer committed, with the data version its commit left
        /// (`SQLiteConnection.dataVersion`): while the version is unchanged nobody else committed,
        /// so the next save numbers its transaction from here without reading the table
        /// (`SQLiteHistory.append`). `nil` until a save records, and after `deleteHistory`.
        var history: (stamp: Int64, number: Int64)?

        /// The newest history number if this writer knows it still holds at data version `stamp`.
        func historyLast(_ stamp: Int64) -> Int64? {
            guard let history, history.stamp == stamp else { return nil }
            return history.number
        }
    }

    /// Everything the contract has, plus pushdown and indexes.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess, .queryPushdown, .indexes, .history, .chosenKeys]
    }

    /// Runs `body` on a pooled reader connection; `consistent` wraps it in a read transaction, so
    /// several statements (a query and its to-many lists) see one committed state.
    func withReader<T>(consistent: Bool, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let db = try readers.withLock { $0.popLast() }
            ?? SQLiteConnection(path: configuration.url.path, create: false, readOnly: configuration.isReadOnly, busyTimeout: configuration.busyTimeout)
        defer { readers.withLock { if $0.count < 8 { $0.append(db) } } }
        do {
            guard consistent else { return try body(db) }
            try db.prepare(.begin).run()
            defer { try? db.prepare(.commit).run() }
            return try body(db)
        } catch let error as SQLiteError {
            throw error.strataError(file: configuration.url.path)
        }
    }

    /// Whether reading a record of `entity` takes more than one statement.
    private func needsSeveralStatements(_ entity: EntitySchema) -> Bool { entity.relationshipIsToMany.contains(true) }

    private func validate(_ descriptor: FetchDescriptor) throws -> EntitySchema {
        try SQLFetch.validate(descriptor, schema: schema)
    }

    /// The matching records, filtered, sorted and windowed in SQL; each keeps its row as SQLite gave
    /// it and decodes a value when it is read (`SQLiteSnapshot`).
    public func fetch(_ descriptor: FetchDescriptor) throws -> [SQLiteSnapshot] {
        if let id = descriptor.pointLookupIdentifier {
            // Fetch by identifier, the hottest read: one prepared statement by primary key.
            let entity = try schema.requireEntity(descriptor.entityName)
            guard id.entityName == entity.name, let found = try lookupRow(entity, id) else { return [] }
            return [found]
        }
        let entity = try validate(descriptor)
        return try withReader(consistent: needsSeveralStatements(entity)) { db in
            let records = SQLiteRecords(db: db, mapping: mapping, layouts: layouts, storeIdentifier: identifier)
            let query = try SQLFetch.select(SQLiteDialect.self, descriptor, entity: entity, columns: records.columns(entity), mapping: mapping, storeIdentifier: identifier)
            return try records.rows(try db.prepare(query.sql), entity, parameters: query.parameters)
        }
    }

    /// The record `id` names, read by primary key with one prepared statement (plus the to-many
    /// lists, in one read transaction), or `nil` when the store does not hold it.
    ///
    /// - Throws: `unknownEntity` when the schema has no entity `id.entityName`, as the fetch does.
    public func snapshot(for id: PersistentIdentifier) throws -> SQLiteSnapshot? {
        try lookupRow(try schema.requireEntity(id.entityName), id)
    }

    /// One record of `entity` by key, keeping its row (`SQLiteSnapshot`); `nil` for a temporary or
    /// another store's identifier.
    private func lookupRow(_ entity: EntitySchema, _ id: PersistentIdentifier) throws -> SQLiteSnapshot? {
        guard !id.isTemporary, id.storeIdentifier == identifier else { return nil }
        return try withReader(consistent: needsSeveralStatements(entity)) { db in
            try SQLiteRecords(db: db, mapping: mapping, layouts: layouts, storeIdentifier: identifier).row(entity, id.primaryKey)
        }
    }

    /// One record of `entity` by key with every value decoded (the history's old values); `nil`
    /// for a temporary or another store's identifier.
    func lookup(_ entity: EntitySchema, _ id: PersistentIdentifier) throws -> DefaultSnapshot? {
        guard !id.isTemporary, id.storeIdentifier == identifier else { return nil }
        return try withReader(consistent: needsSeveralStatements(entity)) { db in
            try SQLiteRecords(db: db, mapping: mapping, layouts: layouts, storeIdentifier: identifier).snapshot(entity, id.primaryKey)
        }
    }

    /// How many records match, counted in SQL.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        let entity = try validate(descriptor)
        return try withReader(consistent: false) { db in
            let query = try SQLFetch.count(SQLiteDialect.self, descriptor, entity: entity, mapping: mapping, storeIdentifier: identifier)
            return Int(try db.prepare(query.sql).rows(query.parameters) { $0.int64(0) }.first ?? 0)
        }
    }

    /// The identifiers of the matching records, from one SQL query.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        let entity = try validate(descriptor)
        return try withReader(consistent: false) { db in
            let query = try SQLFetch.select(SQLiteDialect.self, descriptor, entity: entity, columns: [], mapping: mapping, storeIdentifier: identifier)
            return try db.prepare(query.sql).rows(query.parameters) { PersistentIdentifier(storeIdentifier: identifier, entityName: entity.name, primaryKey: $0.int64(0)) }
        }
    }

    /// The first row of `sql` in the last committed state, read on a reader connection while the
    /// writer holds an open save (a failed save's unique fault names the record that held a value).
    func committedRow(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLValue]? {
        try withReader(consistent: false) { reader in
            try reader.prepare(sql).rows(parameters) { row in (0..<row.columnCount).map { row.value($0) } }.first
        }
    }

    /// Applies the save in one transaction; on any error it is rolled back and nothing changes.
    public func save(_ request: SaveRequest<SQLiteSnapshot>) throws -> SaveResult<SQLiteSnapshot> {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("SQLite store", toDo: "save", file: configuration.url.path)
        }
        return try writer.withLock { writer in
            let db = writer.db
            do {
                try db.reuse(.beginImmediate).run()
            } catch let error as SQLiteError {
                throw error.strataError(file: configuration.url.path)
            }
            do {
                let transaction: SQLSaveTransaction<SQLiteSaveRecords>
                if let reused = writer.transaction {
                    transaction = reused
                } else {
                    let records = SQLiteRecords(db: db, mapping: mapping, layouts: layouts, storeIdentifier: identifier)
                    let oldValues = configuration.recordsHistory ? SQLiteOldValues() : nil
                    transaction = SQLSaveTransaction(records: SQLiteSaveRecords(records: records, store: self, oldValues: oldValues), start: saveStart)
                    writer.transaction = transaction
                }
                transaction.records.oldValues?.removeAll()
                // Left clean for the next save whatever happens, holding nothing of this one.
                defer { transaction.reset() }
                let records = transaction.records.records
                try transaction.run(request)
                var changed: [PersistentIdentifier: SQLiteSnapshot] = [:]
                for snapshot in try transaction.changedRecords() { changed[snapshot.persistentIdentifier] = SQLiteSnapshot(snapshot) }
                let deleted = Set(transaction.deleted.map { records.id(schema.entities[$0.entity].name, $0.key) })
                let result = SaveResult(storeIdentifier: identifier, remappedIdentifiers: transaction.remap, deletedIdentifiers: deleted, changedSnapshots: changed)
                var historyNumber: Int64?
                if configuration.recordsHistory {
                    historyNumber = try recordHistory(request, result, transaction, last: writer.historyLast(db.dataVersion))
                }
                try db.reuse(.commit).run()
                // The data version this commit left: the next save reads the recorded schema again
                // only if another connection commits before it (`SQLiteSaveRecords.schemaStamp`).
                transaction.checkedSchemaStamp = db.dataVersion
                if let historyNumber { writer.history = (transaction.checkedSchemaStamp!, historyNumber) }
                #if STRATA_INTERNAL_CHECKS
                checkInvariantsAfterSave()  // SQLiteStore+Invariants.swift
                #endif
                signalCommit()
                return result
            } catch {
                try? db.prepare(.rollback).run()
                if let error = error as? SQLiteError { throw error.strataError(file: configuration.url.path) }
                throw error
            }
        }
    }
}
