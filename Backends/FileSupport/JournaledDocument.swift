import Foundation
@_spi(StrataEngine) import Strata
import Synchronization

/// A whole store in one document with a journal beside it, held in memory on the shared engine:
/// the body of the JSON and XML backends, which differ only in their `DocumentFormat`.
///
/// Fetches never read the file. A save appends its changes — only the records it changed — to
/// `<document>.journal` and syncs it — with history on, its transaction too, in a line just before
/// (`HistoryFile`) —; when the journal grows past a threshold it is folded into the document
/// (written to a temporary file, synced, renamed over, folder synced), after its transactions were
/// appended to the history file (synced). A crash at any
/// moment leaves the old or the new state. One writer at a time (`storeLocked`, or a wait), any
/// number of read-only stores beside it. Before every save, and at most every 5 ms before a fetch,
/// the files' identity and size are checked and reloaded if someone else changed them (a reader
/// sees the writer's saves this way).
@_spi(StrataEngine) public final class JournaledDocument<Format: DocumentFormat>: Sendable {
    /// The identifier in every permanent identifier, kept in the document.
    public let identifier: String
    /// The document's path.
    public var document: String { files.document }
    private let schema: Schema
    private let journalThreshold: Int
    private let recordsHistory: Bool
    private let engine: RecordEngine
    private let files: JournaledDocumentFiles<Format>
    private let lock: WriterLock?
    private let disk: Mutex<Disk>

    /// Where the files stood when this store last read or wrote them.
    private struct Disk {
        var version: Int64
        var sequence: Int64
        var documentStamp: FileStamp?
        var journalStamp: FileStamp?
        var journalEnd: Int
        /// Where the journal's header line ends (`0`: a journal made before headers).
        var journalHeaderEnd: Int
        var needsLineEnd: Bool
        /// The history file: its stamp, and where a fold appends the journal's transactions.
        var history: HistoryFile.Loaded
        /// The committed transactions the journal holds and the history file lacks.
        var journalHistory: [HistoryFile.Pending]
        var documentBytes: Int
        var outsideChanges = OutsideChangeCheck()
        var temporariesRemoved = false
        /// `WriterLock.savesHere` when this store last looked: another store object of this
        /// process sharing the lock saved if it moved.
        var savesSeen = 0

        init(_ loaded: JournaledDocumentFiles<Format>.Loaded) {
            version = loaded.header.version
            sequence = loaded.sequence
            documentStamp = loaded.documentStamp
            journalStamp = loaded.journalStamp
            journalEnd = loaded.scan.end
            journalHeaderEnd = loaded.scan.headerEnd
            needsLineEnd = loaded.scan.needsLineEnd
            history = loaded.history
            journalHistory = loaded.journalHistory
            documentBytes = loaded.documentBytes
        }
    }

    /// Opens the store at `url`; a writer creates it if neither file exists, a reader never writes.
    ///
    /// A document missing beside its journal is damage even when the journal is empty (right after
    /// a fold): opening it as a new, empty store would hide the loss.
    ///
    /// - Parameters:
    ///   - journalThreshold: fold when the journal passes this many bytes or half the document,
    ///     whichever is larger; `0` folds on every save.
    ///   - recordsHistory: whether saves record history (in `<document>.history`, see `HistoryFile`).
    /// - Throws: `storeLocked` if another writer holds it (saying whether in this process),
    ///   `corruptStore` for a damaged or missing document or journal, `schemaMismatch` listing what
    ///   differs, `unsupported` for a newer format, `ioFailure` for a read-only open of a missing store.
    public init(url: URL, schema: Schema, format: Format, isReadOnly: Bool, lockWait: Duration?, journalThreshold: Int, recordsHistory: Bool = false) throws {
        let files = JournaledDocumentFiles(document: url, format: format)
        self.files = files
        self.schema = schema
        self.journalThreshold = journalThreshold
        self.recordsHistory = recordsHistory
        var lock: WriterLock?
        if !isReadOnly {
            let writerLock = try files.lockForWriting(wait: lockWait, schema: schema) {
                files.history.remove()  // an older store's, left where this one is created
                return StoreState(schema: schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier())
            }
            lock = writerLock
            if FileStamp(files.document) == nil {
                throw StrataError(.corruptStore, "The store's document is missing beside its journal: it was deleted, or it was created by an older Strata that was interrupted. Restore it from a backup (or, for a store never used, delete \((files.journal as NSString).lastPathComponent)).", file: files.document)
            }
        }
        self.lock = lock
        var loaded = try files.load(schema)
        if lock != nil, loaded.recordOutcome == .rewriteRecord {
            // A store written before schema records (or of an older version): the writer folds it
            // once into a document that records the schema (the journal's lines are in it).
            var headerEnd = loaded.scan.headerEnd, history = loaded.history
            _ = try files.fold(loaded.state, sequence: loaded.sequence, headerEnd: &headerEnd, history: &history)
            loaded = try files.load(schema)
        }
        if lock != nil { loaded.history = try files.history.cutUncommitted(after: loaded.history) }
        self.identifier = loaded.state.storeIdentifier
        self.engine = RecordEngine(state: loaded.state)
        self.disk = Mutex(Disk(loaded))
    }

    /// Reloads the files if someone else changed them since this store last wrote or read them.
    private func refreshIfChanged(always: Bool = false) throws {
        try disk.withLock { disk in
            let saves = lock?.savesHere ?? 0
            guard disk.outsideChanges.isDue(always: always || saves != disk.savesSeen) else { return }
            disk.savesSeen = saves
            guard FileStamp(files.document) != disk.documentStamp || FileStamp(files.journal) != disk.journalStamp
                || FileStamp(files.history.path) != disk.history.stamp
            else { return }
            if lock == nil, let appended = try? files.loadAppended(
                to: engine.state, sequence: disk.sequence, documentStamp: disk.documentStamp, journalStamp: disk.journalStamp,
                journalEnd: disk.journalEnd, needsLineEnd: disk.needsLineEnd, history: disk.history, pending: disk.journalHistory)
            {
                // A reader (a follower of another process's saves) reads only what was appended;
                // a writer's state may be a save ahead of its files in this moment, so it reads whole.
                engine.replaceState(appended.state)
                disk.sequence = appended.sequence
                disk.journalEnd = appended.journalEnd
                disk.needsLineEnd = appended.needsLineEnd
                disk.journalStamp = appended.journalStamp
                disk.history = appended.history
                disk.journalHistory = appended.journalHistory
                return
            }
            let loaded = try files.load(schema, history: disk.history)
            guard loaded.state.storeIdentifier == identifier else {
                throw StrataError(.corruptStore, "The store file was replaced by another store's while open; reopen it.", file: files.document)
            }
            engine.replaceState(loaded.state)
            disk = Disk(loaded)
            disk.savesSeen = saves
        }
    }

    /// Fetches from memory (after a cheap check that the files did not change underneath).
    public func fetch(_ descriptor: FetchDescriptor) throws -> [DefaultSnapshot] {
        try refreshIfChanged()
        return try engine.fetch(descriptor)
    }

    /// The record `id` names, from memory: the engine's keyed read, no descriptor.
    public func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? {
        try refreshIfChanged()
        return try engine.snapshot(for: id)
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

    /// Applies the save in memory, appends its changes to the journal (synced) and commits; folds
    /// the journal into the document when it has grown past the threshold, or when the document is
    /// of an older format version.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; the contract's errors; `storeLocked` if the
    ///   journal this store locked was deleted or replaced underneath it.
    public func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        guard let lock else {
            throw StrataError.readOnly("\(files.format.name) store", toDo: "save", file: files.document)
        }
        return try lock.exclusively { try save(request, lock) }
    }

    /// The save, while no other store object of this process sharing the lock saves.
    private func save(_ request: SaveRequest<DefaultSnapshot>, _ lock: WriterLock) throws -> SaveResult<DefaultSnapshot> {
        try lock.check(store: files.document)
        try refreshIfChanged(always: true)
        return try engine.save(request, recordsHistory: recordsHistory) { commit in
            guard !commit.changes.isEmpty else { return }
            try disk.withLock { disk in
                if !disk.temporariesRemoved {
                    DurableFile.removeTemporaries(of: files.document)  // left by a writer killed while folding
                    disk.temporariesRemoved = true
                }
                // The transaction goes into the journal, in a line of its own just before the save's
                // line, in the same write and sync: the save line is the commit point, and a history
                // line without it is part of a torn tail (`Journal`). A fold moves the journal's
                // transactions into the history file (`HistoryFile.appendMissing`) before emptying it.
                var line = files.format.journalLine(sequence: disk.sequence + 1, commit: commit)
                if commit.next.history.lastTransaction != commit.previous.history.lastTransaction, let transaction = commit.next.history.transactions.last {
                    line = HistoryFile.journalLine(transaction, sequence: disk.sequence + 1) + line
                }
                disk.journalEnd = try Journal.append(line, to: files.journal, end: disk.journalEnd, needsLineEnd: disk.needsLineEnd)
                disk.needsLineEnd = false
                disk.sequence += 1
                if disk.version < files.format.version || journalThreshold == 0
                    || disk.journalEnd > max(journalThreshold, disk.documentBytes / 2)
                {
                    // Fold: the document becomes the new state; a crash before the journal is emptied
                    // is harmless, as replay skips lines the document already holds. The save is
                    // durable in the journal already, so a fold that fails is only retried later:
                    // failing the save now would leave a line on disk for a save reported as failed.
                    var headerEnd = disk.journalHeaderEnd, history = disk.history
                    if let bytes = try? files.fold(commit.next, sequence: disk.sequence, headerEnd: &headerEnd, history: &history) {
                        disk.history = history
                        disk.journalHistory = []
                        disk.version = files.format.version
                        disk.documentBytes = bytes
                        disk.journalEnd = headerEnd
                        disk.journalHeaderEnd = headerEnd
                    } else {
                        // Stopped at a step `fold` leaves consistent: reread the files before the next save.
                        disk.documentStamp = nil
                        disk.journalStamp = nil
                        disk.savesSeen = lock.savesHere
                        return
                    }
                }
                disk.documentStamp = FileStamp(files.document)
                disk.journalStamp = FileStamp(files.journal)
                disk.savesSeen = lock.savesHere
            }
        }
    }
}

extension JournaledDocument {
    /// Reloads the files now if another process changed them (`WatchableStore.lookForCommits`).
    public func lookForCommits() throws { try refreshIfChanged(always: true) }

    /// The history transactions `query` selects, as committed (another process's saves included).
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try refreshIfChanged(always: true)
        return try engine.fetchHistory(query)
    }

    /// Removes history up to and including `token` by rewriting the history file atomically.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token;
    ///   `ioFailure` with nothing removed.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        guard let lock else {
            throw StrataError.readOnly("\(files.format.name) store", toDo: "delete history", file: files.document)
        }
        try lock.exclusively {
            try lock.check(store: files.document)
            try refreshIfChanged(always: true)
            try engine.deleteHistory(through: token) { commit in
                try disk.withLock { disk in
                    disk.history = try files.history.rewrite(commit.next.history, sequence: disk.sequence)
                    disk.journalHistory = []
                    disk.savesSeen = lock.savesHere
                }
            }
        }
    }

    /// The schema recorded in the document at `url` (its journal never changes it), or `nil` when
    /// there is no document. Never writes.
    ///
    /// - Throws: `corruptStore` for a document that is not a store of this format.
    public static func recordedSchema(url: URL, format: Format) throws -> RecordedSchema? {
        guard let bytes = try DurableFile.read(url.path) else { return nil }
        return try format.recordedSchema(bytes, file: url.path)
    }

    /// Migrates the store at `url` under its writer lock: loads document and journal at `source`,
    /// rewrites every record (`rewrite`: `StoreState.migrated(by:)`, or a whole staged path), and
    /// replaces the document in one atomic rename with one at `destination` that includes every
    /// journal line. A non-empty journal is folded into an old-schema document and emptied first,
    /// so a new document never meets old journal lines. A crash at any step leaves the old store
    /// whole or the new one.
    ///
    /// - Throws: `ioFailure` when there is no store; `storeLocked`; `schemaMismatch` when the store
    ///   is not at `source`; `rewrite`'s errors — the files untouched.
    public static func migrate(url: URL, format: Format, from source: Schema, to destination: Schema, lockWait: Duration?, rewrite: (StoreState) throws -> StoreState) throws {
        let files = JournaledDocumentFiles(document: url, format: format.reshaped(for: source))
        guard FileStamp(files.document) != nil else {
            throw StrataError(.ioFailure, "There is no \(format.name) store at this path to migrate.", file: files.document)
        }
        let lock = try files.lockForWriting(wait: lockWait, schema: source)
        // Exclusive of the saves of this process's stores on the document too (they share the lock):
        // a store opened before the migration then reloads, and is refused, before its next save.
        try lock.exclusively { try migrate(files, format: format, from: source, to: destination, rewrite: rewrite) }
    }

    /// `migrate`'s work, under the writer lock.
    private static func migrate(_ files: JournaledDocumentFiles<Format>, format: Format, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        let loaded = try files.load(source)
        let next = try rewrite(loaded.state)
        try next.requireSchema(destination)
        let target = format.reshaped(for: destination)
        DurableFile.removeTemporaries(of: files.document)
        var headerEnd = loaded.scan.headerEnd, history = loaded.history
        if loaded.scan.end > headerEnd || headerEnd == 0 {
            // Fold first, at the old schema, and empty the journal: a new-schema document must never
            // sit beside journal lines of the old schema (a format may not read them with the new
            // codecs even to skip them). A crash between the steps leaves a whole old store. The
            // fold also gives a journal made before headers its header line.
            _ = try files.fold(loaded.state, sequence: loaded.sequence, headerEnd: &headerEnd, history: &history)
        }
        try DurableFile.replace(files.document, with: target.encode(next, journalSequence: loaded.sequence, journalHeader: true))
    }
}
