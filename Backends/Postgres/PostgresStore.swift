import Foundation
import Synchronization
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The PostgreSQL backend: a store is one PostgreSQL schema (namespace) on a server that several
/// processes on several machines share, with real tables, native constraints and queries in SQL
/// (docs/formats/postgres.md).
///
/// The layout and the queries are the shared SQL layer's (`StrataSQLSupport`) in `PostgresDialect`.
/// A save is one transaction on the writer connection under the store's write lock (an advisory
/// lock on the namespace), so saves of every process are serialized; fetches run on a pool of
/// reader connections and never wait for a save.
public final class PostgresStore: DataStore {
    /// Snapshots are the core's default.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: PostgresStoreConfiguration
    /// The identifier in every permanent identifier, kept in the store's metadata table.
    public let identifier: String
    let mapping: SQLMapping
    let readers: PostgresConnectionPool
    let writer: Mutex<Writer>
    private let saveStart: SQLSaveStart
    /// Per entity, the UPDATE of a save that updates one record in one round trip
    /// (`PostgresStore+SingleUpdate.swift`), nil for an entity with a to-many.
    let singleUpdateStatements: [String?]
    /// The same UPDATEs recording the save's history transaction, for a store that records history.
    let singleUpdateRecordingStatements: [String?]
    /// Per entity, the old values such an UPDATE's transaction lists (`placeholder`), made once.
    let historyPlaceholders: [[Value]]
    /// The `NOTIFY` every save sends (`commitNotify(_:)`, PostgresStore+Watching.swift).
    let commitNotify: String
    /// How many saves were run again after the server aborted them (a deadlock victim, a
    /// serialization failure); the tests read it.
    let retriedSaves = Atomic<Int>(0)
    /// Called inside every save's transaction right after the write lock is taken (tests only: to
    /// provoke a deadlock at a known point).
    let afterWriteLock = Mutex<(@Sendable () -> Void)?>(nil)
    /// `configuration.name`, worked out once: it parses the URL and reads the environment for
    /// passwords to redact (about 470,000 instructions), which every lookup paid before.
    let name: String

    /// The writer's connection, opened again when the server dropped it, and the save transaction
    /// every save on it reuses (made by the first save).
    struct Writer: ~Copyable {
        var connection: PostgresConnection?
        var transaction: SQLSaveTransaction<PostgresSaveRecords>?
        /// The connection a save just lost, until `save` asked whether the save may run again.
        var lostConnection: PostgresConnection?
    }

    /// Connects and opens the store, creating its namespace and tables if it holds none.
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached; `corruptStore` for a namespace
    ///   holding someone else's tables, `unsupported` for a newer format, `schemaMismatch` for another
    ///   schema — each leaving the namespace untouched; `ioFailure` for a read-only open of a
    ///   namespace that holds no store; `readOnlyStore` for a writable open of a hot standby.
    public init(_ configuration: PostgresStoreConfiguration) throws {
        self.configuration = configuration
        let mapping = try SQLMapping(schema: configuration.schema, dialect: PostgresDialect.self)
        self.mapping = mapping
        self.saveStart = SQLSaveStart(mapping)
        self.singleUpdateStatements = Self.singleUpdateStatements(for: mapping)
        self.singleUpdateRecordingStatements = Self.singleUpdateRecordingStatements(for: mapping)
        self.historyPlaceholders = configuration.schema.entities.map { $0.attributeTypes.map(Self.placeholder) }
        self.commitNotify = Self.commitNotify(configuration.namespace)
        let name = configuration.name
        self.name = name
        let readers = PostgresConnectionPool(settings: configuration.settings, namespace: configuration.namespace, store: name, mapping: mapping)
        self.readers = readers
        let connection = try PostgresConnection(settings: configuration.settings)
        let opened: PostgresCatalog.Opened
        do {
            if configuration.isReadOnly {
                guard let found = try PostgresCatalog.inspect(connection, namespace: configuration.namespace, schema: configuration.schema, file: name) else {
                    throw StrataError(.ioFailure, "There is no PostgreSQL store in this namespace; a read-only open never creates one.", file: name)
                }
                opened = found
            } else {
                // A hot standby takes no writes: refused at open, not at the first save.
                if try connection.query("SELECT pg_is_in_recovery()::int::int8").integer(0, 0) == 1 {
                    throw StrataError(.readOnlyStore, "The PostgreSQL server is a hot standby, which takes no writes: open the store with `isReadOnly: true` to read from it, or name the primary to save.", file: name)
                }
                opened = try PostgresCatalog.openOrCreate(
                    connection, namespace: configuration.namespace, schema: configuration.schema,
                    ddl: mapping.ddl(PostgresDialect.self), entityTables: mapping.tables.map(\.name), file: name)
            }
            try PostgresCatalog.use(configuration.namespace, on: connection)
            if configuration.recordsHistory, !configuration.isReadOnly { try PostgresHistory.createTable(connection, namespace: configuration.namespace) }
            try readers.learnTextColumns(connection)
        } catch let error as PostgresError {
            throw error.strataError(store: name)
        }
        identifier = opened.storeIdentifier
        connection.openedFingerprint = configuration.isReadOnly ? nil : mapping.schema.fingerprint
        writer = Mutex(Writer(connection: configuration.isReadOnly ? nil : connection, transaction: nil, lostConnection: nil))
    }

    /// Everything the contract has, plus pushdown and indexes.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess, .queryPushdown, .indexes, .history, .chosenKeys]
    }

    private func records(_ connection: PostgresConnection) -> PostgresRecords {
        PostgresRecords(connection: connection, mapping: mapping, storeIdentifier: identifier, store: name)
    }

    /// Whether reading a record of `entity` takes more than one statement.
    private func needsSeveralStatements(_ entity: EntitySchema) -> Bool { entity.relationshipIsToMany.contains(true) }

    /// The matching records, filtered, sorted and windowed in SQL (docs/formats/postgres.md, "Order").
    public func fetch(_ descriptor: FetchDescriptor) throws -> [DefaultSnapshot] {
        if let id = descriptor.pointLookupIdentifier {
            let entity = try schema.requireEntity(descriptor.entityName)
            guard id.entityName == entity.name, let found = try lookup(entity, id) else { return [] }
            return [found]
        }
        let entity = try SQLFetch.validate(descriptor, schema: schema)
        if PostgresDialect.sortsInSwift(descriptor, entity: entity) { return try fetchSortingInSwift(descriptor, entity) }
        return try readers.withConnection(consistent: needsSeveralStatements(entity)) { connection in
            let records = records(connection)
            let query = try SQLFetch.select(PostgresDialect.self, descriptor, entity: entity, columns: records.columns(entity), mapping: mapping, storeIdentifier: identifier)
            return try records.snapshots(try connection.query(query.sql, query.parameters), entity)
        }
    }

    /// The record `id` names, read by key (plus its to-many lists, in one read transaction), or
    /// `nil` when the store does not hold it.
    public func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? {
        try lookup(try schema.requireEntity(id.entityName), id)
    }

    /// One record of `entity` by key; `nil` for a temporary or another store's identifier.
    func lookup(_ entity: EntitySchema, _ id: PersistentIdentifier) throws -> DefaultSnapshot? {
        guard !id.isTemporary, id.storeIdentifier == identifier else { return nil }
        return try readers.withConnection(consistent: needsSeveralStatements(entity)) { connection in
            try records(connection).snapshot(entity, id.primaryKey)
        }
    }

    /// How many records match, counted in SQL.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        let entity = try SQLFetch.validate(descriptor, schema: schema)
        return try readers.withConnection(consistent: false) { connection in
            let query = try SQLFetch.count(PostgresDialect.self, descriptor, entity: entity, mapping: mapping, storeIdentifier: identifier)
            return Int(try connection.query(query.sql, query.parameters).integer(0, 0) ?? 0)
        }
    }

    /// The identifiers of the matching records, from one SQL query.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        let entity = try SQLFetch.validate(descriptor, schema: schema)
        if PostgresDialect.sortsInSwift(descriptor, entity: entity) { return try fetchSortingInSwift(descriptor, entity).map(\.persistentIdentifier) }
        return try readers.withConnection(consistent: false) { connection in
            let query = try SQLFetch.select(PostgresDialect.self, descriptor, entity: entity, columns: [], mapping: mapping, storeIdentifier: identifier)
            let rows = try connection.query(query.sql, query.parameters)
            return (0..<rows.count).map { PersistentIdentifier(storeIdentifier: identifier, entityName: entity.name, primaryKey: rows.integer($0, 0) ?? 0) }
        }
    }

    /// A fetch sorted with the `localizedStandard` comparator, which no PostgreSQL expression
    /// orders exactly as the contract does: filtered in SQL, then ordered by the core's sort keys
    /// and windowed here (docs/formats/postgres.md, "Order"). `caseInsensitive` sorts in SQL.
    private func fetchSortingInSwift(_ descriptor: FetchDescriptor, _ entity: EntitySchema) throws -> [DefaultSnapshot] {
        var all = descriptor
        all.fetchLimit = nil
        all.fetchOffset = 0
        all.sortBy = []
        return try readers.withConnection(consistent: true) { connection in
            let records = records(connection)
            let query = try SQLFetch.select(PostgresDialect.self, all, entity: entity, columns: records.columns(entity), mapping: mapping, storeIdentifier: identifier)
            let matching = try records.snapshots(try connection.query(query.sql, query.parameters), entity)
            var related: [PersistentIdentifier: DefaultSnapshot] = [:]
            let evaluator = PredicateEvaluator(schema: schema, reader: SnapshotReader<DefaultSnapshot> { id in
                if let known = related[id] { return known }
                guard let entity = self.schema.entity(named: id.entityName), id.storeIdentifier == self.identifier,
                      let found = try? records.snapshot(entity, id.primaryKey) else { return nil }
                related[id] = found
                return found
            })
            let getters = try descriptor.sortBy.map { try evaluator.sortGetter($0, entity) }
            let keyed = matching.map { record in (record, getters.map { $0(record) }) }
            let sorted = keyed.sorted { a, b in
                for (n, key) in descriptor.sortBy.enumerated() {
                    let order = Value.sortOrder(a.1[n], b.1[n])
                    if order != 0 { return key.order == .ascending ? order < 0 : order > 0 }
                }
                return a.0.persistentIdentifier.primaryKey < b.0.persistentIdentifier.primaryKey
            }.map(\.0)
            let start = min(descriptor.fetchOffset, sorted.count)
            let end = descriptor.fetchLimit.map { min(start + $0, sorted.count) } ?? sorted.count
            return Array(sorted[start..<end])
        }
    }

    /// Applies the save in one transaction under the store's write lock (the shared layer's
    /// `SQLSaveTransaction`); on any error it is rolled back and nothing changes. A transaction the
    /// server aborted as a deadlock victim or a serialization failure (40P01, 40001) is run again
    /// from the start, up to `saveAttempts` times in all; a connection the server dropped is replaced
    /// by the next save, or at once when it was found dropped before the save wrote anything
    /// (docs/formats/postgres.md, "Isolation, retries").
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached (the save was not applied, or,
    ///   when the connection was lost during COMMIT, applied whole or not at all); `storeLocked`
    ///   with the last SQLSTATE as its native error when every attempt was aborted.
    public func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("PostgreSQL store", toDo: "save", file: configuration.name)
        }
        return try writer.withLock { writer in
            var attempt = 1
            while true {
                do {
                    return try saveOnce(request, &writer)
                } catch let error as PostgresError where error.isConnectionLost && lostBeforeWriting(&writer) && attempt < Self.saveAttempts {
                    // The connection was found dropped (a restarted server, a terminated backend)
                    // by the save's first pipeline, before anything reached the tables: go on over
                    // a new one (`saveOnce` let go of the old one).
                    attempt += 1
                } catch let error as PostgresError where error.isRetryable && attempt < Self.saveAttempts {
                    attempt += 1
                    retriedSaves.add(1, ordering: .relaxed)
                } catch let error as PostgresError {
                    throw error.strataError(store: configuration.name)
                }
            }
        }
    }

    /// Whether the last attempt's connection was lost in the pipeline that began its transaction,
    /// with no COMMIT in it (`PostgresConnection.lostBeforeWriting`).
    private func lostBeforeWriting(_ writer: inout Writer) -> Bool {
        guard let lost = writer.lostConnection else { return false }
        writer.lostConnection = nil
        return lost.lostBeforeWriting
    }

    /// How many times a save runs at most when the server aborts it as a deadlock victim or a
    /// serialization failure: bounded, so a save under constant conflict ends with `storeLocked`.
    static let saveAttempts = 5

    /// One attempt of `save`: the transaction, committed, or rolled back and the error rethrown
    /// (libpq and server failures as `PostgresError`).
    private func saveOnce(_ request: SaveRequest<DefaultSnapshot>, _ writer: inout Writer) throws -> SaveResult<DefaultSnapshot> {
        var connection = try writerConnection(&writer)
        do {
            do {
                try connection.beginWrite()
            } catch let error as PostgresError where error.isConnectionLost && writer.connection === connection {
                // The open connection was dropped (a restarted server, a terminated backend) before
                // this save wrote anything: go on over a new one.
                writer.connection = nil
                connection = try writerConnection(&writer)
                try connection.beginWrite()
            }
            if let hook = afterWriteLock.withLock({ $0 }) {
                // The hook runs holding the write lock: the pending begin goes now.
                try connection.sendPendingBegin()
                hook()
            } else if connection.beginPending, let update = singleUpdate(request), let result = try savedInOneRoundTrip(update, request, on: connection) {
                return result
            }
            let transaction: SQLSaveTransaction<PostgresSaveRecords>
            if let reused = writer.transaction {
                transaction = reused
            } else {
                transaction = SQLSaveTransaction(records: PostgresSaveRecords(records: records(connection), readers: readers), start: saveStart)
                writer.transaction = transaction
            }
            // Left clean for the next save whatever happens, holding nothing of this one.
            defer {
                transaction.reset()
                transaction.records.prefetched.clear()
            }
            do {
                try transaction.run(request)
                var changed: [PersistentIdentifier: DefaultSnapshot] = [:]
                for snapshot in try transaction.changedRecords() { changed[snapshot.persistentIdentifier] = snapshot }
                let deleted = Set(transaction.deleted.map { transaction.records.id(schema.entities[$0.entity].name, $0.key) })
                let result = SaveResult(storeIdentifier: identifier, remappedIdentifiers: transaction.remap, deletedIdentifiers: deleted, changedSnapshots: changed)
                if configuration.recordsHistory { try recordHistory(request, result, connection: connection, records: transaction.records.records) }
                try connection.commit(notify: commitNotify)  // wakes live sequences (+Watching)
                #if STRATA_INTERNAL_CHECKS
                checkInvariantsAfterSave()  // PostgresStore+Invariants.swift
                #endif
                return result
            } catch {
                try? connection.rollback()
                // The begin's guard found another schema: another process migrated the store. A
                // statement prepared after the migration (before the guard could run) fails
                // instead for a column or table the migration renamed or dropped (SQLSTATE class
                // 42): the recorded fingerprint, read again, tells.
                if connection.schemaChanged || (error as? PostgresError)?.sqlstate.hasPrefix("42") == true && migratedSinceOpening(connection) {
                    throw try transaction.records.recordedSchema().savedAfterMigration(opening: schema, file: name)
                }
                throw error
            }
        } catch let error as PostgresError {
            if error.isConnectionLost || !connection.isAlive {
                writer.connection = nil
                writer.transaction = nil
                writer.lostConnection = connection
            }
            throw error
        }
    }

    /// Whether the store now records another schema than the one it was opened at (false when
    /// that cannot be read).
    private func migratedSinceOpening(_ connection: PostgresConnection) -> Bool {
        guard let rows = try? connection.query(SQLText.recordedFingerprint.sql), rows.count > 0, case .text(let recorded) = rows.value(0, 0) else { return false }
        return recorded != mapping.schema.fingerprint
    }

    /// The writer's open connection, else a new one (`storeUnavailable` when the server cannot be
    /// reached).
    private func writerConnection(_ writer: inout Writer) throws -> PostgresConnection {
        if let open = writer.connection, open.isAlive { return open }
        writer.connection = nil
        writer.transaction = nil
        let connection = try readers.connect()
        connection.openedFingerprint = mapping.schema.fingerprint
        writer.connection = connection
        return connection
    }
}

extension PostgresStore {
    /// Removes the store at `configuration`: drops its namespace with every table in it (`DROP
    /// SCHEMA … CASCADE`), in one statement; nothing happens when there is none. The tools and the
    /// tests use it to clean up the stores they made.
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached.
    public static func dropStore(_ configuration: PostgresStoreConfiguration) throws {
        let connection = try PostgresConnection(settings: configuration.settings)
        do {
            try connection.execute("DROP SCHEMA IF EXISTS \(PostgresCatalog.quote(configuration.namespace)) CASCADE")
        } catch let error as PostgresError {
            throw error.strataError(store: configuration.name)
        }
    }
}
