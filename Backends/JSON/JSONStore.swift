import Foundation
import Strata
import Synchronization

/// The JSON backend: a readable document, crash-safe, whose small saves append to a journal.
///
/// The whole store lives in memory on the shared engine after open, so fetches never read the file.
/// A save appends its changes — only the records it changed — to `<file>.journal` and syncs it; when
/// the journal grows past a threshold it is folded into the document (written to a temporary file,
/// synced, renamed over, folder synced). A crash at any moment leaves the old or the new state. An
/// advisory lock keeps a second process out (`storeLocked`, or a wait). Before every save, and at most
/// every 5 ms before a fetch, the store checks the files' identity and size and reloads them if
/// someone else changed them.
/// `docs/formats/json.md` describes the files.
public final class JSONStore: DataStore {
    /// Snapshots are the core's default.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: JSONStoreConfiguration
    /// The identifier in every permanent identifier, kept in the document.
    public let identifier: String
    private let engine: RecordEngine
    private let files: JSONFiles
    private struct Disk {
        var sequence: Int64
        var documentStamp: JSONFiles.Stamp?
        var journalStamp: JSONFiles.Stamp?
        var journalBytes: Int
        var documentBytes: Int
        var checked = ContinuousClock.now
    }

    /// How stale a fetch may be about an outside edit: the files are looked at (two `stat` calls)
    /// at most this often for fetches, and before every save.
    static let outsideChangeWindow = Duration.milliseconds(5)
    private let disk: Mutex<Disk>

    /// Opens the store, creating the document if it is missing.
    ///
    /// - Throws: `storeLocked` if another process holds it, `corruptStore` (with the byte offset)
    ///   for a damaged document or journal, `schemaMismatch`, `unsupported` for a newer format.
    public init(_ configuration: JSONStoreConfiguration) throws {
        self.configuration = configuration
        let files = JSONFiles(document: configuration.url)
        try files.lock(wait: configuration.lockWait)
        self.files = files
        let loaded = try Self.load(files, configuration)
        self.identifier = loaded.state.storeIdentifier
        self.engine = RecordEngine(state: loaded.state)
        self.disk = Mutex(loaded.disk)
    }

    private static func load(_ files: JSONFiles, _ configuration: JSONStoreConfiguration) throws -> (state: StoreState, disk: Disk) {
        let path = files.document.path
        var state: StoreState
        var sequence: Int64 = 0
        var documentBytes = 0
        if let data = FileManager.default.contents(atPath: path) {
            guard !data.isEmpty else {
                throw StrataError(.corruptStore, "The store file is empty (0 bytes); it was truncated. Restore it from a backup.", file: path, offset: 0)
            }
            (state, sequence) = try JSONDocumentFile.decode(data, schema: configuration.schema, file: path)
            documentBytes = data.count
        } else {
            state = StoreState(schema: configuration.schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier())
            let bytes = JSONDocumentFile.encode(state, journalSequence: 0)
            try files.replace(files.document, with: bytes)
            documentBytes = bytes.count
        }
        var journalBytes = 0
        if let journal = FileManager.default.contents(atPath: files.journal.path), !journal.isEmpty {
            sequence = try JSONJournal.replay(journal, into: &state, after: sequence, file: files.journal.path)
            journalBytes = journal.count
        }
        try state.finishLoading()
        let disk = Disk(sequence: sequence, documentStamp: files.stamp(files.document), journalStamp: files.stamp(files.journal), journalBytes: journalBytes, documentBytes: documentBytes)
        return (state, disk)
    }

    /// Reloads the files if someone else changed them since this store last wrote or read them.
    private func refreshIfChanged(always: Bool = false) throws {
        try disk.withLock { disk in
            let now = ContinuousClock.now
            guard always || now - disk.checked >= Self.outsideChangeWindow else { return }
            disk.checked = now
            guard files.stamp(files.document) != disk.documentStamp || files.stamp(files.journal) != disk.journalStamp else { return }
            let (state, fresh) = try Self.load(files, configuration)
            guard state.storeIdentifier == identifier else {
                throw StrataError(.corruptStore, "The store file was replaced by another store's while open; reopen it.", file: files.document.path)
            }
            engine.replaceState(state)
            disk = fresh
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
    /// the journal into the document when it has grown past the threshold.
    public func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        try refreshIfChanged(always: true)
        return try engine.save(request) { commit in
            guard !commit.changes.isEmpty else { return }
            try disk.withLock { disk in
                let line = JSONJournal.line(sequence: disk.sequence + 1, commit: commit)
                try files.append(files.journal, line)
                disk.sequence += 1
                disk.journalBytes += line.count
                if configuration.journalThreshold == 0 || disk.journalBytes > max(configuration.journalThreshold, disk.documentBytes / 2) {
                    // Fold: the document becomes the new state; a crash before the journal is emptied
                    // is harmless, as replay skips lines the document already holds.
                    let document = JSONDocumentFile.encode(commit.next, journalSequence: disk.sequence)
                    try files.replace(files.document, with: document)
                    try files.truncate(files.journal)
                    disk.documentBytes = document.count
                    disk.journalBytes = 0
                }
                disk.documentStamp = files.stamp(files.document)
                disk.journalStamp = files.stamp(files.journal)
            }
        }
    }
}
