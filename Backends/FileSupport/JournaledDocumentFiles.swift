import Foundation
@_spi(StrataEngine) import Strata
#if canImport(Glibc)
import Glibc
#endif

/// The two files of a journaled document store and how a consistent state is read from them.
///
/// A writer locks the journal (the one file never renamed; see `WriterLock`). Readers take no lock:
/// they read the document, then the journal, and retry a read found corrupt when either file changed
/// meanwhile (a writer appended or folded): an old document with a new journal would skip sequence
/// numbers, a journal read while a fold empties it ends before the document's sequence.
struct JournaledDocumentFiles<Format: DocumentFormat>: Sendable {
    let format: Format
    let document: String
    let journal: String
    /// The store's history (`<document>.history`), kept apart from the format's files.
    let history: HistoryFile

    init(document: URL, format: Format) {
        self.format = format
        self.document = document.path
        self.journal = document.path + ".journal"
        self.history = HistoryFile(path: document.path + ".history")
    }

    /// A loaded state and where the files stood.
    struct Loaded {
        var state: StoreState
        var header: DocumentHeader
        var sequence: Int64
        var scan: Journal.Scan
        var documentBytes: Int
        var documentStamp: FileStamp?
        var journalStamp: FileStamp?
        /// The history committed with the state, and where its writer appends.
        var history: HistoryFile.Loaded
        /// Whether a writer must rewrite the document for its schema record (a legacy record, or
        /// an older version than the schema's).
        var recordOutcome: RecordedSchema.OpeningOutcome
    }

    /// Reads the document and replays the journal; never writes.
    ///
    /// - Throws: `corruptStore` naming file and offset, `schemaMismatch`, `unsupported`, or
    ///   `ioFailure` if there is no store.
    func load(_ schema: Schema) throws -> Loaded {
        var attempt = 0
        while true {
            attempt += 1
            let before = (FileStamp(document), FileStamp(journal))
            do {
                return try loadOnce(schema)
            } catch let error as StrataError where error.code == .corruptStore && attempt < 20 {
                // A writer may have changed either file while we read them: a fold renames the
                // document and then empties the journal, so a read of the journal cut short by the
                // emptying (the document unchanged) looks like a stale copy. Damage is what stays
                // when neither file changed during the read; a consistent state is one retry away.
                guard (FileStamp(document), FileStamp(journal)) != before else { throw error }
            }
        }
    }

    private func loadOnce(_ schema: Schema) throws -> Loaded {
        let documentStamp = FileStamp(document)
        guard let bytes = try DurableFile.read(document) else {
            guard FileStamp(journal) == nil else {
                throw StrataError(.corruptStore, "The store's document is missing beside its journal; restore it from a backup.", file: document)
            }
            throw StrataError(.ioFailure, "There is no \(format.name) store at this path (the document is missing).", file: document)
        }
        let recorded: RecordedSchema
        do {
            recorded = try format.recordedSchema(bytes, file: document)
        } catch {
            // The full decode explains damage better (offsets, lines, hostile markup): let it speak.
            _ = try format.decode(bytes, schema: schema, file: document)
            throw error
        }
        let recordOutcome = try recorded.check(opening: schema, file: document)
        var effective = schema
        if let version = recorded.version, version > schema.version { effective.version = version }  // writing never lowers it
        var (state, header) = try format.decode(bytes, schema: effective, file: document)
        let journalStamp = FileStamp(journal)
        var scan = Journal.Scan()
        var sequence = header.journalSequence
        if let journalBytes = try DurableFile.read(journal) {
            (scan, sequence) = try format.replay(journalBytes, into: &state, after: header.journalSequence, file: journal)
        } else if format.hasJournal(bytes) {
            guard creationWasInterrupted() else { throw Self.missingJournal(journal) }
            throw StrataError(.ioFailure, "The \(format.name) store is still being created (or its creation was interrupted; a writer finishes it).", file: document)
        }
        try state.finishLoading()
        try state.verifyReferences(file: document)
        // Read after the journal: a save writes its history line before its journal line, so every
        // committed save's transaction is there; lines of saves past `sequence` never committed.
        let committed = try history.load(committedThrough: sequence, storeIdentifier: state.storeIdentifier)
        state.loadHistory(committed.log)
        return Loaded(state: state, header: header, sequence: sequence, scan: scan, documentBytes: bytes.count, documentStamp: documentStamp, journalStamp: journalStamp, history: committed, recordOutcome: recordOutcome)
    }

    /// Takes the writer lock on the journal, creating the journal for a new store (and for a
    /// document of a format version without journals).
    ///
    /// A new store's document (`newDocument`) is written durably *before* its journal appears
    /// (`WriterLock.create`'s `beforeLinking`; the folder sync that makes the document durable
    /// covers the locked temporary journal too), so a power loss during creation leaves either no
    /// store, or a document beside that temporary journal (`creationWasInterrupted`: the next
    /// writer finishes the creation) — never a journal without its document, which is damage.
    ///
    /// - Throws: `corruptStore` if a document that has a journal lacks it, `storeLocked`.
    func lockForWriting(wait: Duration?, newDocument: (() throws -> [UInt8])? = nil) throws -> WriterLock {
        if FileStamp(journal) == nil {
            let bytes = try DurableFile.read(document)
            if let bytes, !bytes.isEmpty, format.hasJournal(bytes), !creationWasInterrupted() {
                throw Self.missingJournal(journal)
            }
            let temporary = document + Self.creationMarker + "\(getpid())"
            let lock = try WriterLock.create(journal, temporary: temporary) {
                if bytes == nil, let newDocument { try DurableFile.replace(document, with: try newDocument()) }
            }
            if let lock { return lock }
        }
        return try WriterLock(path: journal, store: document, wait: wait)
    }

    /// The temporary journal of a creation: `<document>.tmp-journal-<pid>`.
    static var creationMarker: String { ".tmp-journal-" }

    /// Whether a writer was stopped while creating the store: its temporary journal is still there
    /// (removed by the creation, and by the next save's clean-up of temporary files).
    func creationWasInterrupted() -> Bool {
        let folder = (document as NSString).deletingLastPathComponent
        let prefix = (document as NSString).lastPathComponent + Self.creationMarker
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []).contains { $0.hasPrefix(prefix) }
    }

    private static func missingJournal(_ journal: String) -> StrataError {
        StrataError(.corruptStore, "The journal of the store is missing; saves since the last fold are lost. Restore it from a backup.", file: journal)
    }
}
