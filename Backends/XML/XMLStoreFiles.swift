import Foundation
import Strata
import StrataFileSupport
#if canImport(Glibc)
import Glibc
#endif

/// The paths of an XML store and how a consistent state is read from them.
///
/// A writer locks the journal (the one file never renamed; see `WriterLock`). Readers take no lock:
/// they read the document, then the journal, and retry when the document was replaced meanwhile (a
/// writer folded), since an old document with a new journal would skip sequence numbers.
struct XMLStoreFiles {
    let document: String
    let journal: String
    let codecs: [XMLRecordCodec]

    init(document: URL, schema: Schema) {
        self.document = document.path
        self.journal = document.path + ".journal"
        self.codecs = XMLDocumentFile.codecs(schema)
    }

    /// A loaded state and where the files stood.
    struct Loaded {
        var state: StoreState
        var header: XMLStoreReader.Header
        var sequence: Int64
        var scan: Journal.Scan
        var documentBytes: Int
        var documentStamp: FileStamp?
        var journalStamp: FileStamp?
    }

    /// Reads the document and replays the journal; never writes.
    ///
    /// - Throws: `corruptStore` naming file and offset, `schemaMismatch`, `unsupported`, or
    ///   `ioFailure` if there is no store (`missing`).
    func load(_ schema: Schema) throws -> Loaded {
        var attempt = 0
        while true {
            attempt += 1
            let before = FileStamp(document)
            do {
                return try loadOnce(schema)
            } catch let error as StrataError where error.code == .corruptStore && attempt < 20 {
                // A writer may have folded between our two reads; a consistent state is one retry away.
                guard FileStamp(document) != before else { throw error }
            }
        }
    }

    private func loadOnce(_ schema: Schema) throws -> Loaded {
        let documentStamp = FileStamp(document)
        guard let bytes = try DurableFile.read(document) else {
            throw StrataError(.ioFailure, "There is no XML store at this path (the document is missing).", file: document)
        }
        var (state, header) = try XMLDocumentFile.decode(bytes, schema: schema, codecs: codecs, file: document)
        let journalStamp = FileStamp(journal)
        var scan = Journal.Scan()
        var sequence = header.journalSequence
        if let journalBytes = try DurableFile.read(journal) {
            (scan, sequence) = try XMLJournal.replay(journalBytes, into: &state, after: header.journalSequence, codecs: codecs, file: journal)
        } else {
            throw StrataError(.corruptStore, "The journal of the store is missing; saves since the last fold are lost. Restore it from a backup.", file: journal)
        }
        try state.finishLoading()
        try state.verifyReferences(file: document)
        return Loaded(state: state, header: header, sequence: sequence, scan: scan, documentBytes: bytes.count, documentStamp: documentStamp, journalStamp: journalStamp)
    }

    /// Makes sure the journal exists before a writer locks it: a new store gets an empty one; a
    /// document without its journal is a damaged store.
    func prepareJournalForWriter() throws {
        guard FileStamp(journal) == nil else { return }
        if FileStamp(document) != nil {
            throw StrataError(.corruptStore, "The journal of the store is missing; saves since the last fold are lost. Restore it from a backup.", file: journal)
        }
        let fd = open(journal, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 || errno == EEXIST else { throw StrataError(.ioFailure, "Cannot create the journal (\(String(cString: strerror(errno)))).", file: journal) }
        if fd >= 0 {
            fsync(fd)
            close(fd)
            DurableFile.syncFolder(of: journal)
        }
    }
}
