import Foundation
import Strata
import StrataFileSupport
import Synchronization

/// The XML backend: a well-formed, schema-valid document, crash-safe, whose small saves append to a journal.
///
/// The whole store lives in memory on the shared engine after open, so fetches never read the file.
/// A save appends its changes — only the records it changed — to `<file>.journal` and syncs it; when
/// the journal grows past a threshold it is folded into the document (written to a temporary file,
/// synced, renamed over, folder synced). A crash at any moment leaves the old or the new state. One
/// writer at a time (`storeLocked`, or a wait), any number of read-only stores beside it. Before
/// every save, and at most every 5 ms before a fetch, the store checks the files' identity and size
/// and reloads them if someone else changed them (a reader sees the writer's saves this way).
/// `docs/formats/xml.md` describes the files.
public final class XMLStore: DataStore {
    /// Snapshots are the core's default.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: XMLStoreConfiguration
    /// The identifier in every permanent identifier, kept in the document.
    public let identifier: String
    private let engine: RecordEngine
    private let files: XMLStoreFiles
    private let lock: WriterLock?
    private struct Disk {
        var version: Int64
        var sequence: Int64
        var documentStamp: FileStamp?
        var journalStamp: FileStamp?
        var journalEnd: Int
        var needsLineEnd: Bool
        var documentBytes: Int
        var checked = ContinuousClock.now
        var temporariesRemoved = false

        init(_ loaded: XMLStoreFiles.Loaded) {
            version = loaded.header.version
            sequence = loaded.sequence
            documentStamp = loaded.documentStamp
            journalStamp = loaded.journalStamp
            journalEnd = loaded.scan.end
            needsLineEnd = loaded.scan.needsLineEnd
            documentBytes = loaded.documentBytes
        }
    }

    /// How stale a fetch may be about an outside edit: the files are looked at (two `stat` calls)
    /// at most this often for fetches, and before every save.
    static let outsideChangeWindow = Duration.milliseconds(5)
    private let disk: Mutex<Disk>

    /// Opens the store; a writer creates it if the document is missing, a reader never writes.
    ///
    /// - Throws: `storeLocked` if another writer holds it (saying whether in this process),
    ///   `corruptStore` (with libxml2's line and column, or the byte offset) for a damaged document
    ///   or journal, `schemaMismatch` listing what differs, `unsupported` for a newer format or for
    ///   entity and property names XML cannot carry, `ioFailure` for a read-only open of a missing store.
    public init(_ configuration: XMLStoreConfiguration) throws {
        self.configuration = configuration
        for entity in configuration.schema.entities {
            for name in [entity.name] + entity.attributes.map(\.name) + entity.relationships.map(\.name) where !XMLWriter.canCarry(name) {
                throw StrataError(.unsupported, "The name '\(name.debugDescription)' holds a control character XML 1.0 cannot carry; the XML backend cannot store this schema.", entity: entity.name)
            }
        }
        let files = XMLStoreFiles(document: configuration.url, schema: configuration.schema)
        self.files = files
        var lock: WriterLock?
        if !configuration.isReadOnly {
            try files.prepareJournalForWriter()
            lock = try WriterLock(path: files.journal, store: files.document, wait: configuration.lockWait)
            if FileStamp(files.document) == nil {
                guard FileStamp(files.journal)?.size == 0 else {
                    throw StrataError(.corruptStore, "The store's document is missing but its journal holds saves; restore the document from a backup.", file: files.document)
                }
                let empty = StoreState(schema: configuration.schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier())
                try DurableFile.replace(files.document, with: XMLDocumentFile.encode(empty, journalSequence: 0, codecs: files.codecs))
            }
        }
        self.lock = lock
        let loaded = try files.load(configuration.schema)
        self.identifier = loaded.state.storeIdentifier
        self.engine = RecordEngine(state: loaded.state)
        self.disk = Mutex(Disk(loaded))
    }

    /// Reloads the files if someone else changed them since this store last wrote or read them.
    private func refreshIfChanged(always: Bool = false) throws {
        try disk.withLock { disk in
            let now = ContinuousClock.now
            guard always || now - disk.checked >= Self.outsideChangeWindow else { return }
            disk.checked = now
            guard FileStamp(files.document) != disk.documentStamp || FileStamp(files.journal) != disk.journalStamp else { return }
            let loaded = try files.load(configuration.schema)
            guard loaded.state.storeIdentifier == identifier else {
                throw StrataError(.corruptStore, "The store file was replaced by another store's while open; reopen it.", file: files.document)
            }
            engine.replaceState(loaded.state)
            disk = Disk(loaded)
        }
    }

    /// Everything the contract has.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess]
    }

    /// Fetches from memory (after a cheap check that the files did not change underneath).
    public func fetch(_ descriptor: FetchDescriptor) throws -> [DefaultSnapshot] {
        try refreshIfChanged()
        return try engine.fetch(descriptor)
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
            throw StrataError(.readOnlyStore, "This XML store was opened read-only; open it without `isReadOnly` to save.", file: files.document)
        }
        try lock.check(store: files.document)
        try refreshIfChanged(always: true)
        return try engine.save(request) { commit in
            guard !commit.changes.isEmpty else { return }
            try disk.withLock { disk in
                if !disk.temporariesRemoved {
                    DurableFile.removeTemporaries(of: files.document)  // left by a writer killed while folding
                    disk.temporariesRemoved = true
                }
                let line = XMLJournal.line(sequence: disk.sequence + 1, commit: commit, codecs: files.codecs)
                disk.journalEnd = try Journal.append(line, to: files.journal, end: disk.journalEnd, needsLineEnd: disk.needsLineEnd)
                disk.needsLineEnd = false
                disk.sequence += 1
                if disk.version < XMLDocumentFile.version || configuration.journalThreshold == 0
                    || disk.journalEnd > max(configuration.journalThreshold, disk.documentBytes / 2)
                {
                    // Fold: the document becomes the new state; a crash before the journal is emptied
                    // is harmless, as replay skips lines the document already holds. The save is
                    // durable in the journal already, so a fold that fails is only retried later:
                    // failing the save now would leave a line on disk for a save reported as failed.
                    let document = XMLDocumentFile.encode(commit.next, journalSequence: disk.sequence, codecs: files.codecs)
                    if (try? DurableFile.replace(files.document, with: document)) != nil {
                        disk.version = XMLDocumentFile.version
                        disk.documentBytes = document.count
                        if (try? Journal.truncate(files.journal)) != nil { disk.journalEnd = 0 }
                    }
                }
                disk.documentStamp = FileStamp(files.document)
                disk.journalStamp = FileStamp(files.journal)
            }
        }
    }
}
