@_spi(StrataEngine) import Strata

/// A file format that keeps a whole store in one document with an append-only journal beside it
/// (JSON, XML): what `JournaledDocument` needs from it to open, read and save such a store.
///
/// The format owns the bytes (document layout, seal, journal lines); `JournaledDocument` owns
/// everything else the two backends would otherwise each write: the writer lock, creating a new
/// store, loading a consistent pair of files, noticing outside changes, appending and folding.
@_spi(StrataEngine) public protocol DocumentFormat: Sendable {
    /// The format's name in messages ("JSON", "XML").
    var name: String { get }
    /// The document version this code writes; the first save to an older document folds, so the
    /// document is rewritten in this version.
    var version: Int64 { get }
    /// The sealed document holding `state`, which includes every journal line up to `journalSequence`.
    /// `journalHeader` says that the journal beside it starts with its header line (`Journal`), so
    /// that a journal without one is damage; `false` writes the previous version, which says nothing.
    func encode(_ state: StoreState, journalSequence: Int64, journalHeader: Bool) -> [UInt8]
    /// Reads a document; every damage is `corruptStore` naming `file`, another schema is
    /// `schemaMismatch`, a newer version `unsupported`.
    func decode(_ bytes: [UInt8], schema: Schema, file: String) throws -> (StoreState, DocumentHeader)
    /// The schema a document records (`RecordedSchema`), read without decoding its records when
    /// the format allows; a document written before records reads as a legacy record.
    func recordedSchema(_ document: [UInt8], file: String) throws -> RecordedSchema
    /// The same format for documents of `schema` (a migration writes the new schema's document).
    func reshaped(for schema: Schema) -> Self
    /// Whether a document of these bytes has a journal beside it, so that a missing journal is
    /// damage (saves since the last fold would be lost). Only formats older than journals say no.
    func hasJournal(_ document: [UInt8]) -> Bool
    /// The journal line recording one committed save.
    func journalLine(sequence: Int64, commit: CommitContext) -> [UInt8]
    /// Applies the journal's lines after the document's `sequence` to `state`; returns the scan
    /// (where a writer appends next) and the last sequence number applied.
    func replay(_ journal: [UInt8], into state: inout StoreState, after sequence: Int64, file: String) throws -> (Journal.Scan, Int64)
}

/// What a document says about itself besides its records.
public struct DocumentHeader: Sendable, Equatable {
    /// The format version the document was written in.
    public var version: Int64
    /// The last journal sequence number the document includes.
    public var journalSequence: Int64
    /// Whether the journal beside the document must start with its header line (documents of the
    /// version that introduced journal headers, and later).
    public var journalHeader: Bool

    /// A header.
    public init(version: Int64, journalSequence: Int64, journalHeader: Bool) {
        self.version = version
        self.journalSequence = journalSequence
        self.journalHeader = journalHeader
    }
}
