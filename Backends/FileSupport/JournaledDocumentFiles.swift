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

    init(document: URL, format: Format) {
        self.format = format
        self.document = document.path
        self.journal = document.path + ".journal"
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
            throw Self.missingJournal(journal)
        }
        try state.finishLoading()
        try state.verifyReferences(file: document)
        return Loaded(state: state, header: header, sequence: sequence, scan: scan, documentBytes: bytes.count, documentStamp: documentStamp, journalStamp: journalStamp, recordOutcome: recordOutcome)
    }

    /// Takes the writer lock on the journal, creating the journal for a new store (and for a
    /// document of a format version without journals); returns the lock and whether this call
    /// created a new store's journal — the one case in which a missing document may be created.
    ///
    /// - Throws: `corruptStore` if a document that has a journal lacks it, `storeLocked`.
    func lockForWriting(wait: Duration?) throws -> (WriterLock, creating: Bool) {
        if FileStamp(journal) == nil {
            if let bytes = try DurableFile.read(document), !bytes.isEmpty, format.hasJournal(bytes) {
                throw Self.missingJournal(journal)
            }
            let creating = FileStamp(document) == nil
            if let lock = try WriterLock.create(journal, temporary: document + ".tmp-journal-\(getpid())") { return (lock, creating) }
        }
        return (try WriterLock(path: journal, store: document, wait: wait), false)
    }

    private static func missingJournal(_ journal: String) -> StrataError {
        StrataError(.corruptStore, "The journal of the store is missing; saves since the last fold are lost. Restore it from a backup.", file: journal)
    }
}
