import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import StrataFileSupport
import Synchronization

/// The LMDB backend: records in B-trees keyed by big-endian primary keys, unique constraints,
/// indexes and to-many sides in their own databases, one write transaction per save.
///
/// The layout is in `docs/formats/lmdb.md`. A save is one LMDB write transaction, so it is atomic
/// and, with LMDB's copy-on-write pages, a killed writer leaves the last committed state. Fetches run
/// in pooled read transactions (MVCC): they see the last committed state and never wait for a save,
/// in this process or another one opening the same folder; writers of several processes take turns
/// through LMDB's writer lock.
public final class LMDBStore: HistoryRecordingStore {
    /// Snapshots keep a fetched record's bytes and decode values when they are read.
    public typealias Snapshot = LMDBSnapshot

    /// The configuration the store was opened with.
    public let configuration: LMDBStoreConfiguration
    /// The identifier in every permanent identifier, kept in the metadata database.
    public let identifier: String
    let environment: LMDBEnvironment
    let layout: LMDBLayout
    /// The layout, identifier and path every transaction reads, in one reference.
    let context: LMDBContext
    /// Runs inside every save after its writes and before its commit (tests watch readers there).
    let beforeCommit = Mutex<(@Sendable () -> Void)?>(nil)
    /// The newest history number this store's last save left, with that save's write transaction
    /// id: while the next write transaction's id is the one after it, nobody committed between, so
    /// the save numbers on from here without reading the environment (`LMDBHistory.newest`).
    /// `nil` until a save records, and after `deleteHistory`.
    let historyLast = Mutex<(transaction: Int, number: Int64)?>(nil)

    /// Opens the environment in `configuration.folder`, creating it if the folder is missing or empty.
    ///
    /// - Throws: `corruptStore` for a folder that is not an LMDB environment or is someone else's,
    ///   `unsupported` for a newer format, `schemaMismatch` for another schema — each without
    ///   modifying the folder's data.
    public init(_ configuration: LMDBStoreConfiguration) throws {
        self.configuration = configuration
        let path = configuration.folder.path
        do {
            let existed = try LMDBFormat.preflight(configuration.folder, readOnly: configuration.isReadOnly)
            let flags = LMDBStoreConfiguration.environmentFlags(configuration.durability) | (configuration.isReadOnly ? MDB_RDONLY : 0)
            let environment = try LMDBEnvironment.shared(
                path: path, mapSize: configuration.initialMapSize, maximumMapSize: configuration.maximumMapSize,
                maxDatabases: LMDBLayout.environmentSlots(configuration.schema), flags: flags)
            var opened = try existed ? LMDBFormat.inspect(environment, schema: configuration.schema).map { inspected in
                // A store written before schema records (or of an older version): upgraded by a writer.
                if inspected.2 == .rewriteRecord, !configuration.isReadOnly { return try LMDBFormat.create(environment, schema: configuration.schema) }
                return (inspected.0, inspected.1)
            } : nil
            if opened == nil {
                guard !configuration.isReadOnly else {
                    throw StrataError(.ioFailure, "The LMDB environment holds no store yet; a read-only open never creates one.", file: path)
                }
                opened = try LMDBFormat.create(environment, schema: configuration.schema)
                // liblmdb syncs data.mdb but never its folder: the new file's name is durable only now.
                try LMDBFormat.finishCreation(path)
            }
            self.environment = environment
            self.layout = opened!.0
            self.identifier = opened!.1
            self.context = LMDBContext(layout: opened!.0, storeIdentifier: opened!.1, file: path)
        } catch let error as LMDBError {
            throw error.strataError(path: path)
        }
    }

    /// Everything the contract has: indexes are walked by fetches (`queryPushdown`).
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess, .queryPushdown, .indexes, .history, .chosenKeys]
    }

    private func read<T>(_ body: (LMDBRecords) throws -> T) throws -> T {
        do {
            return try environment.read { txn in
                try body(LMDBRecords(txn: txn, context: context))
            }
        } catch let error as LMDBError {
            throw error.strataError(path: environment.path)
        }
    }

    /// The matching records as snapshots, in the contract's order.
    public func fetch(_ descriptor: FetchDescriptor) throws -> [LMDBSnapshot] {
        if let id = descriptor.pointLookupIdentifier {
            // Fetch by identifier: one mdb_get (the point lookup without its checks of the descriptor).
            let entity = try schema.requireEntity(descriptor.entityName)
            guard !id.isTemporary, id.entityName == entity.name, id.storeIdentifier == identifier else { return [] }
            let key = id.primaryKey
            return try read { records in try records.snapshot(entity, key).map { [$0] } ?? [] }
        }
        let entity = try descriptor.checkedEntity(in: schema)
        return try read { records in
            let query = LMDBQuery(records: records, schema: schema)
            if descriptor.predicate == nil, descriptor.sortBy.isEmpty { return try query.scan(descriptor, entity) }
            return try query.matching(descriptor, entity).map { try records.snapshot(entity, $0.key, $0.record) }
        }
    }

    /// The record `id` names, decoded straight from its page after one `mdb_get`, or `nil` when the
    /// store does not hold it (temporary, another store's, another entity's, deleted, never made).
    ///
    /// - Throws: `unknownEntity` when the schema has no entity `id.entityName`, as the fetch does.
    public func snapshot(for id: PersistentIdentifier) throws -> LMDBSnapshot? {
        let entity = try context.entity(named: id.entityName)
        guard !id.isTemporary, id.storeIdentifier == identifier else { return nil }
        // The key alone is captured: capturing `id` copies its two strings into the closure.
        let key = id.primaryKey
        return try read { records in try records.snapshot(entity, key) }
    }

    /// How many records match.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        let entity = try descriptor.checkedEntity(in: schema)
        return try read { records in try LMDBQuery(records: records, schema: schema).count(descriptor, entity) }
    }

    /// The identifiers of the matching records, in the contract's order.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        let entity = try descriptor.checkedEntity(in: schema)
        return try read { records in
            try LMDBQuery(records: records, schema: schema).matching(descriptor, entity).map { records.id(entity.name, $0.key) }
        }
    }

    /// Refuses a save into an environment migrated to another schema since this store opened it
    /// (by another store of this process or another process): its records would be written in the
    /// old layout among the new one's. One metadata read per save.
    ///
    /// - Throws: `schemaMismatch` naming both versions.
    private func checkSchemaUnchanged(_ txn: OpaquePointer) throws {
        let stored = try LMDBMeta.get(txn, layout.meta, "fingerprint").map { String(decoding: $0, as: UTF8.self) }
        guard stored == layout.schema.fingerprint else {
            throw try LMDBFormat.read(txn, layout.meta, file: environment.path).1.savedAfterMigration(opening: layout.schema, file: environment.path)
        }
    }

    /// Applies the save in one write transaction; on any error it is aborted and nothing changes.
    public func save(_ request: SaveRequest<LMDBSnapshot>) throws -> SaveResult<LMDBSnapshot> {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("LMDB store", toDo: "save", file: environment.path)
        }
        do {
            // The history number this save recorded (or still knows), with its transaction id.
            var recorded: (transaction: Int, number: Int64)?
            let result = try environment.write { txn in
                recorded = nil
                try checkSchemaUnchanged(txn)
                let transaction = try LMDBSaveTransaction(txn: txn, context: context)
                if configuration.recordsHistory { transaction.oldLists = [:] }
                try transaction.run(request)
                if configuration.recordsHistory {
                    let id = mdb_txn_id(txn)
                    let last = historyLast.withLock { known in known.flatMap { $0.transaction + 1 == id ? $0.number : nil } }
                    let number = try transaction.recordHistory(request, file: environment.path, last: last)
                    recorded = number.map { (id, $0) } ?? last.map { (id, $0) }
                }
                var changed: [PersistentIdentifier: LMDBSnapshot] = [:]
                for snapshot in try transaction.changedRecords() { changed[snapshot.persistentIdentifier] = snapshot }
                if let hook = beforeCommit.withLock({ $0 }) { hook() }
                return SaveResult(storeIdentifier: identifier, remappedIdentifiers: transaction.remap, deletedIdentifiers: transaction.deletedIdentifiers, changedSnapshots: changed)
            }
            if let recorded { historyLast.withLock { $0 = recorded } }
            #if STRATA_INTERNAL_CHECKS
            checkInvariantsAfterSave()  // LMDBStore+Invariants.swift
            #endif
            return result
        } catch let error as LMDBError {
            throw error.strataError(path: environment.path)
        }
    }

    /// The recorded history, read in one read transaction (so another process's committed saves
    /// are in it).
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        do {
            return try environment.read { txn in
                try LMDBHistory(txn: txn, meta: layout.meta, file: environment.path).fetch(query, storeIdentifier: identifier)
            }
        } catch let error as LMDBError {
            throw error.strataError(path: environment.path)
        }
    }

    /// Removes history through `token` in one write transaction.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard !configuration.isReadOnly else {
            throw StrataError.readOnly("LMDB store", toDo: "delete history", file: environment.path)
        }
        try token.requireStore(identifier)
        do {
            try environment.write { txn in try LMDBHistory(txn: txn, meta: layout.meta, file: environment.path).delete(through: token.transaction) }
            historyLast.withLock { $0 = nil }
        } catch let error as LMDBError {
            throw error.strataError(path: environment.path)
        }
    }
}
