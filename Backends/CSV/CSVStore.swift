import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport
import Synchronization

/// The CSV backend: a folder of spreadsheet-readable tables, committed atomically, on the shared engine.
///
/// Every entity and many-to-many relationship is a table cut into chunk files of 1,024 keys, named by
/// a manifest with each file's checksum; a save rewrites only the chunks it changed, beside the old
/// ones, and switches the manifest atomically, so a one-record save costs the same at any size. One writer at a time holds a lock on the folder itself
/// (`storeLocked`), any number of read-only stores beside it. Before every save, and at most every
/// 5 ms before a fetch, the store checks whether the files changed underneath it and reloads them.
/// Snapshots are `CSVSnapshot`s: rows of fields, typed only when read.
/// `docs/formats/csv.md` describes the files.
public final class CSVStore: HistoryRecordingStore {
    /// Snapshots keep their CSV fields.
    public typealias Snapshot = CSVSnapshot

    /// The configuration the store was opened with.
    public let configuration: CSVStoreConfiguration
    /// The identifier in every permanent identifier, kept in the manifest.
    public let identifier: String
    private let engine: RecordEngine
    private let layout: CSVLayout
    private let folder: CSVFolder
    private let lock: WriterLock?
    private struct Disk {
        var manifest: CSVManifest
        /// The files a look for outside changes stats (`CSVFolder.watched`), and their stamps.
        var watched: [String]
        var stamps: [FileStamp?]
        var outsideChanges = OutsideChangeCheck()
        var straysRemoved = false
        /// `WriterLock.savesHere` when this store last looked (another store object of this
        /// process sharing the lock saved if it moved).
        var savesSeen = 0
        var recordOutcome = RecordedSchema.OpeningOutcome.current
        /// Where the next history transaction is appended.
        var history = HistoryFile.Loaded()
    }
    private let disk: Mutex<Disk>

    /// Opens the folder; a writer creates an empty store in an empty or missing folder. Opening
    /// never writes or removes a file of an existing store.
    ///
    /// - Throws: `corruptStore` naming the file, line and column of a malformed file (or a folder of
    ///   tables without its manifest), `schemaMismatch` listing what differs, `unsupported` for a
    ///   newer format, `storeLocked`, `ioFailure` for a read-only open of a missing store.
    public init(_ configuration: CSVStoreConfiguration) throws {
        self.configuration = configuration
        let layout = CSVLayout(schema: configuration.schema)
        let folder = CSVFolder(url: configuration.folder)
        self.layout = layout
        self.folder = folder
        var lock: WriterLock?
        if !configuration.isReadOnly {
            try DurableFile.createFolder(configuration.folder.path)
            lock = try WriterLock(path: configuration.folder.path, store: configuration.folder.path, wait: configuration.lockWait)
            if FileStamp(folder.manifestPath) == nil {
                let tables = folder.tableFiles()
                guard tables.isEmpty else {
                    throw StrataError(.corruptStore, "manifest.json is missing but the folder holds tables (\(tables.prefix(3).joined(separator: ", "))…); restore the manifest from a backup. Nothing was changed.", file: folder.manifestPath)
                }
                let schema = configuration.schema
                folder.history.remove()  // an older store's, left where this one is created
                try folder.commit(CSVManifest(
                    storeIdentifier: PersistentIdentifier.makeStoreIdentifier(), fingerprint: schema.fingerprint, schema: schema.canonicalDescription,
                    record: RecordedSchema(schema).encoded(), generation: 0, files: [:], checksums: [:], nextKeys: [:]))
            }
        }
        self.lock = lock
        var (state, disk) = try Self.load(folder, layout)
        if lock != nil, disk.recordOutcome == .rewriteRecord, disk.manifest.version == CSVManifest.version {
            // A store written before schema records (or of an older version): the record is added once.
            var next = disk.manifest
            next.record = RecordedSchema(configuration.schema).encoded()
            try folder.commit(next)
            (state, disk) = try Self.load(folder, layout)
        }
        self.identifier = state.storeIdentifier
        self.engine = RecordEngine(state: state)
        self.disk = Mutex(disk)
    }

    /// Reads the manifest and the tables it names; retries when a writer committed meanwhile (it
    /// may have removed a table the old manifest named). With `history`, where this store's
    /// history stood, only the history lines appended since are read.
    private static func load(_ folder: CSVFolder, _ layout: CSVLayout, history previous: HistoryFile.Loaded? = nil) throws -> (StoreState, Disk) {
        var attempt = 0
        while true {
            attempt += 1
            let before = FileStamp(folder.manifestPath)
            do {
                guard let manifest = try folder.readManifest() else {
                    let tables = folder.tableFiles()
                    throw tables.isEmpty
                        ? StrataError(.ioFailure, "There is no CSV store in this folder (no manifest.json).", file: folder.manifestPath)
                        : StrataError(.corruptStore, "manifest.json is missing but the folder holds tables (\(tables.prefix(3).joined(separator: ", "))…); restore the manifest from a backup.", file: folder.manifestPath)
                }
                let schema = layout.schema
                let outcome = try manifest.recorded(file: folder.manifestPath).check(opening: schema, file: folder.manifestPath)
                var state = try CSVLoader(layout: layout, folder: folder).load(manifest)
                let watched = folder.watched(manifest)
                // The manifest's stamp from before it was read, not after the tables: a commit
                // that renamed a new manifest in meanwhile must look like a change to the next
                // refresh. A stamp taken now would match it, and this store would keep the old
                // state until yet another commit (a `history follow` worker missed a last save).
                var stamps = CSVFolder.stamps(watched)
                stamps[0] = before
                // After the manifest: a save writes its history line before the manifest that
                // commits it; lines past the manifest's generation never committed.
                let history = try folder.history.load(committedThrough: manifest.generation, storeIdentifier: state.storeIdentifier, after: previous)
                state.loadHistory(history.log)
                return (state, Disk(manifest: manifest, watched: watched, stamps: stamps, recordOutcome: outcome, history: history))
            } catch let error as StrataError where error.code == .corruptStore && attempt < 20 {
                guard FileStamp(folder.manifestPath) != before else { throw error }
            }
        }
    }

    /// Reloads the files if someone else changed them since this store last wrote or read them.
    func refreshIfChanged(always: Bool = false) throws {
        try disk.withLock { disk in
            let saves = lock?.savesHere ?? 0
            guard disk.outsideChanges.isDue(always: always || saves != disk.savesSeen) else { return }
            disk.savesSeen = saves
            guard !CSVFolder.unchanged(disk.watched, disk.stamps) else { return }
            let (state, fresh) = try Self.load(folder, layout, history: disk.history)
            guard state.storeIdentifier == identifier else {
                throw StrataError(.corruptStore, "The store folder now holds another store; reopen it.", file: folder.manifestPath)
            }
            engine.replaceState(state)
            disk = fresh
            disk.savesSeen = saves
        }
    }

    /// Everything the contract has.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess, .history, .chosenKeys]
    }

    /// Fetches from memory as `CSVSnapshot`s.
    public func fetch(_ descriptor: FetchDescriptor) throws -> [CSVSnapshot] {
        try refreshIfChanged()
        return try engine.fetch(descriptor)
    }

    /// The record `id` names: the same look for outside changes as a fetch, then one keyed read
    /// of the committed state — no descriptor, no one-element result, no generic fetch.
    ///
    /// - Throws: `unknownEntity` when the schema has no entity `id.entityName`, as the fetch does.
    public func snapshot(for id: PersistentIdentifier) throws -> CSVSnapshot? {
        try refreshIfChanged()
        let entity = try schema.requireEntity(id.entityName)
        guard !id.isTemporary, id.storeIdentifier == identifier else { return nil }
        let state = engine.state
        return state.record(entity, id.primaryKey).map { state.snapshot(entity, id.primaryKey, $0) }
    }

    /// Counts from memory.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        try refreshIfChanged()
        return try engine.fetchCount(descriptor)
    }

    /// Lists identifiers from memory.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        try refreshIfChanged()
        return try engine.fetchIdentifiers(descriptor)
    }

    /// Applies the save in memory, writes new versions of the files it changed and switches the
    /// manifest; if anything fails before the switch, nothing is committed. Files the new manifest
    /// no longer names are removed after the switch.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; the contract's errors; `storeLocked` if the
    ///   folder was replaced underneath the store.
    public func save(_ request: SaveRequest<CSVSnapshot>) throws -> SaveResult<CSVSnapshot> {
        guard let lock else {
            throw StrataError.readOnly("CSV store", toDo: "save", file: folder.url.path)
        }
        return try lock.exclusively { try save(request, lock) }
    }

    /// The save, while no other store object of this process sharing the lock saves.
    private func save(_ request: SaveRequest<CSVSnapshot>, _ lock: WriterLock) throws -> SaveResult<CSVSnapshot> {
        try lock.check(store: folder.url.path)
        try refreshIfChanged(always: true)
        return try engine.save(request, recordsHistory: configuration.recordsHistory) { commit in
            guard !commit.changes.isEmpty else { return }
            try disk.withLock { disk in
                let schema = layout.schema
                var next = disk.manifest
                next.version = CSVManifest.version
                next.schema = schema.canonicalDescription
                if next.record == nil { next.record = RecordedSchema(schema).encoded() }  // an older format's first save
                next.generation += 1
                // A save rewrites the chunks it changed; the first save over an older format rewrites all.
                let migrating = disk.manifest.version < CSVManifest.version
                if migrating {
                    next.files = [:]
                    next.checksums = [:]
                }
                let dirty = migrating ? CSVChunks.all(commit.next, layout) : CSVChunks.dirty(commit, layout)
                func put(_ table: String, _ chunk: Int64, _ bytes: [UInt8]?) throws {
                    let name = CSVChunks.name(table, chunk)
                    if let old = next.files[name] { next.checksums[old] = nil }
                    guard let bytes else {
                        next.files[name] = nil  // an empty chunk has no file
                        return
                    }
                    let file = "\(name).\(next.generation).csv"
                    next.files[name] = file
                    next.checksums[file] = try folder.write(file, bytes)
                }
                for entity in schema.entities {
                    for chunk in (dirty[entity.name] ?? []).sorted() { try put(entity.name, chunk, layout.rows(entity, chunk: chunk, in: commit.next)) }
                }
                for pair in layout.pairs {
                    for chunk in (dirty[pair.name] ?? []).sorted() { try put(pair.name, chunk, layout.rows(pair, chunk: chunk, in: commit.next)) }
                }
                for entity in schema.entities { next.nextKeys[entity.name] = commit.next.nextPrimaryKey(entity) }
                // The history line before the manifest, the commit point (see `HistoryFile`).
                var history: HistoryFile.Loaded?
                if commit.next.history.lastTransaction != commit.previous.history.lastTransaction, let transaction = commit.next.history.transactions.last {
                    history = try folder.history.append(transaction, sequence: next.generation, after: disk.history, log: commit.next.history)
                }
                try folder.commit(next)
                if let history { disk.history = history }
                folder.removeUnnamed(previous: disk.manifest, keeping: next, tables: Set(schema.entities.map(\.name) + layout.pairs.map(\.name)), everyStray: !disk.straysRemoved)
                disk.straysRemoved = true
                disk.manifest = next
                disk.watched = folder.watched(next)
                disk.stamps = CSVFolder.stamps(disk.watched)
                disk.savesSeen = lock.savesHere
            }
        }
    }

    /// The recorded history (`history.journal`), as committed by any process.
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try refreshIfChanged(always: true)
        return try engine.fetchHistory(query)
    }

    /// Removes history up to and including `token`, atomically (the history file is rewritten).
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard let lock else {
            throw StrataError.readOnly("CSV store", toDo: "delete history", file: folder.url.path)
        }
        try lock.exclusively {
            try lock.check(store: folder.url.path)
            try refreshIfChanged(always: true)
            try engine.deleteHistory(through: token) { commit in
                try disk.withLock { disk in
                    disk.history = try folder.history.rewrite(commit.next.history, sequence: disk.manifest.generation)
                    disk.stamps = CSVFolder.stamps(disk.watched)
                    disk.savesSeen = lock.savesHere
                }
            }
        }
    }
}
