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
        /// The history file as read (the history folded so far), and where its writer appends.
        var history: HistoryFile.Loaded
        /// The committed transactions the journal holds and the history file lacks (the state's
        /// history is the file's and these).
        var journalHistory: [HistoryFile.Pending]
        /// Whether a writer must rewrite the document for its schema record (a legacy record, or
        /// an older version than the schema's).
        var recordOutcome: RecordedSchema.OpeningOutcome
    }

    /// Reads the document and replays the journal; never writes.
    ///
    /// - Parameter history: where this store's history stood (its last load or write): only the
    ///   history lines appended since are read (`HistoryFile.load(committedThrough:storeIdentifier:after:)`).
    /// - Throws: `corruptStore` naming file and offset, `schemaMismatch`, `unsupported`, or
    ///   `ioFailure` if there is no store.
    func load(_ schema: Schema, history previous: HistoryFile.Loaded? = nil) throws -> Loaded {
        var attempt = 0
        while true {
            attempt += 1
            let before = (FileStamp(document), FileStamp(journal))
            do {
                return try loadOnce(schema, history: previous)
            } catch let error as StrataError where error.code == .corruptStore && attempt < 20 {
                // A writer may have changed either file while we read them: a fold renames the
                // document and then empties the journal, so a read of the journal cut short by the
                // emptying (the document unchanged) looks like a stale copy. Damage is what stays
                // when neither file changed during the read; a consistent state is one retry away.
                guard (FileStamp(document), FileStamp(journal)) != before else { throw error }
            }
        }
    }

    private func loadOnce(_ schema: Schema, history previous: HistoryFile.Loaded?) throws -> Loaded {
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
        try checkHeader(scan, required: header.journalHeader, store: state.storeIdentifier)
        try state.finishLoading()
        try state.verifyReferences(file: document)
        // Read after the journal: a save's transaction is in its journal line, and a fold appends
        // the journal's transactions to the history file before it empties the journal, so every
        // committed save's transaction is in one or the other; lines past `sequence` never committed.
        let committed = try history.load(committedThrough: sequence, storeIdentifier: state.storeIdentifier, after: previous)
        let pending = try HistoryFile.pending(scan.history, committedThrough: sequence, journal: journal, storeIdentifier: state.storeIdentifier)
        let merged = HistoryFile.merged(committed.log, pending)
        state.loadHistory(merged.log)
        return Loaded(state: state, header: header, sequence: sequence, scan: scan, documentBytes: bytes.count, documentStamp: documentStamp, journalStamp: journalStamp, history: committed, journalHistory: merged.pending, recordOutcome: recordOutcome)
    }

    /// Where the journal and history stood after a read, and the state they gave.
    struct Appended {
        var state: StoreState
        var sequence: Int64
        var journalEnd: Int
        var needsLineEnd: Bool
        var journalStamp: FileStamp
        var history: HistoryFile.Loaded
        var journalHistory: [HistoryFile.Pending]
    }

    /// `state` (read at `sequence` from the document stamped `documentStamp` and the journal up to
    /// `journalEnd`) with the journal lines appended since, and the history lines appended since
    /// `history` (the journal's transactions it lacks so far: `pending`): what `load` would read, without decoding the document and the lines read
    /// before. `nil` when the document changed (a fold, a replaced store) or the journal is not the
    /// one read on (another file, shorter): read the store whole then. A torn last line is left
    /// for the next read.
    ///
    /// - Throws: `corruptStore` for a damaged line (the caller reads whole, which says more).
    func loadAppended(to state: StoreState, sequence: Int64, documentStamp: FileStamp?, journalStamp: FileStamp?, journalEnd: Int, needsLineEnd: Bool, history: HistoryFile.Loaded, pending: [HistoryFile.Pending]) throws -> Appended? {
        guard let documentStamp, FileStamp(document) == documentStamp else { return nil }
        let fd = open(journal, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let stamp = FileStamp(descriptor: fd), let journalStamp, stamp.isSameFile(as: journalStamp), stamp.size >= journalEnd, journalEnd > 0 else { return nil }
        var next = state, last = sequence, end = journalEnd, lacksLineEnd = needsLineEnd, pending = pending
        if stamp != journalStamp || stamp.size > journalEnd {
            // From the line end before `journalEnd` (or the missing one), so the tail starts at a line.
            let from = journalEnd - 1
            var bytes = [UInt8](repeating: 0, count: Int(stamp.size) - from)
            var got = 0
            while got < bytes.count {
                let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, $0.count - got, off_t(from + got)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return nil }
                got += n
            }
            var tail: ArraySlice<UInt8> = bytes[...]
            if needsLineEnd {
                guard bytes.count == 1 || bytes[1] == 0x0A else { return nil }  // the writer adds it before its next line
                tail = bytes.dropFirst(bytes.count == 1 ? 1 : 2)
            } else {
                guard bytes[0] == 0x0A else { return nil }
                tail = bytes.dropFirst()
            }
            let consumed = from + (bytes.count - tail.count)
            let scan: Journal.Scan
            (scan, last) = try format.replay(Array(tail), into: &next, after: sequence, file: journal)
            if !scan.lines.isEmpty {
                end = consumed + scan.end
                lacksLineEnd = scan.needsLineEnd
            }
            pending += try HistoryFile.pending(scan.history, base: consumed, committedThrough: last, journal: journal, storeIdentifier: next.storeIdentifier)
            // A fold renames the document before it empties the journal: unchanged now, the bytes
            // read were the journal's lines, not a new journal's.
            guard FileStamp(document) == documentStamp else { return nil }
            try next.finishLoading()
            try next.verifyReferences(file: document)
        }
        let committed = try self.history.load(committedThrough: last, storeIdentifier: next.storeIdentifier, after: history)
        let merged = HistoryFile.merged(committed.log, pending)
        next.loadHistory(merged.log)
        return Appended(state: next, sequence: last, journalEnd: end, needsLineEnd: lacksLineEnd, journalStamp: stamp, history: committed, journalHistory: merged.pending)
    }

    /// Refuses a journal whose document says it starts with its header line (an emptied or
    /// replaced journal: acknowledged saves may be gone) and a header naming another store.
    private func checkHeader(_ scan: Journal.Scan, required: Bool, store identifier: String) throws {
        if let named = scan.header, named != identifier {
            throw StrataError(.corruptStore, "The journal belongs to another store (\(named), not \(identifier)); restore the store from a backup.", file: journal, offset: 0)
        }
        guard required, scan.header == nil else { return }
        throw StrataError(.corruptStore, "The journal lacks its header line: it was emptied, cut or replaced, and saves since the last fold may be lost. Restore the store from a backup.", file: journal, offset: 0)
    }

    /// Folds: appends to the history file (synced) the transactions of `state` it lacks — the
    /// journal's, about to be emptied —, replaces the document with `state` at `sequence` and
    /// empties the journal back to its header. A journal without a header (made before headers) gets one first, and only then
    /// does the document say it has one, so a crash at any step leaves a store that opens: the old
    /// document with its journal, the new one beside the emptied journal, or with the header.
    ///
    /// - Parameter headerEnd: where the journal's header ends (`Journal.Scan.headerEnd`, `0` for
    ///   none); where a writer appends next afterwards.
    ///   - history: the history file as this store last read or wrote it; where it stands afterwards.
    /// - Returns: the size of the document written.
    /// - Throws: `ioFailure`, the files then in one of the states above (reload them).
    func fold(_ state: StoreState, sequence: Int64, headerEnd: inout Int, history: inout HistoryFile.Loaded) throws -> Int {
        history = try self.history.appendMissing(from: state.history, sequence: sequence, after: history)
        var bytes = format.encode(state, journalSequence: sequence, journalHeader: headerEnd > 0)
        try DurableFile.replace(document, with: bytes)
        try Journal.truncate(journal, keeping: headerEnd)
        if headerEnd == 0 {
            headerEnd = try Journal.append(Journal.header(store: state.storeIdentifier), to: journal, end: 0, needsLineEnd: false)
            bytes = format.encode(state, journalSequence: sequence, journalHeader: true)
            try DurableFile.replace(document, with: bytes)
        }
        return bytes.count
    }

    /// Takes the writer lock on the journal, creating the journal for a new store (and for a
    /// document of a format version without journals).
    ///
    /// A new store's document (`newStore`) is written durably *before* its journal appears
    /// (`WriterLock.create`'s `beforeLinking`; the folder sync that makes the document durable
    /// covers the locked temporary journal too), so a power loss during creation leaves either no
    /// store, or a document beside that temporary journal (`creationWasInterrupted`: the next
    /// writer finishes the creation) — never a journal without its document, which is damage. The
    /// temporary journal gets its header line, synced, before either, so the journal never appears
    /// without it; a writer finishing an interrupted creation gives it the header its document
    /// (read at `schema`) asks for.
    ///
    /// - Throws: `corruptStore` if a document that has a journal lacks it, `storeLocked`.
    func lockForWriting(wait: Duration?, schema: Schema, newStore: (() throws -> StoreState)? = nil) throws -> WriterLock {
        if FileStamp(journal) == nil {
            let bytes = try DurableFile.read(document)
            if let bytes, !bytes.isEmpty, format.hasJournal(bytes), !creationWasInterrupted() {
                throw Self.missingJournal(journal)
            }
            let temporary = document + Self.creationMarker + "\(getpid())"
            let lock = try WriterLock.create(journal, temporary: temporary) {
                if bytes == nil, let newStore {
                    let state = try newStore()
                    try Journal.writeHeader(store: state.storeIdentifier, to: temporary)
                    try DurableFile.replace(document, with: format.encode(state, journalSequence: 0, journalHeader: true))
                } else if let bytes, let (state, header) = try? format.decode(bytes, schema: schema, file: document), header.journalHeader {
                    try Journal.writeHeader(store: state.storeIdentifier, to: temporary)  // a damaged document speaks at load
                }
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
