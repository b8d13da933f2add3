@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The XML backend's document and journal bytes, for the shared `JournaledDocument`.
struct XMLFormat: DocumentFormat {
    /// The codec of every entity, in schema order, made once per store.
    let codecs: [XMLRecordCodec]

    init(schema: Schema) { codecs = XMLDocumentFile.codecs(schema) }

    var name: String { "XML" }
    var version: Int64 { XMLDocumentFile.version }

    func encode(_ state: StoreState, journalSequence: Int64, journalHeader: Bool) -> [UInt8] {
        XMLDocumentFile.encode(state, journalSequence: journalSequence, version: journalHeader ? XMLDocumentFile.version : XMLDocumentFile.journalHeaderVersion - 1, codecs: codecs)
    }

    func decode(_ bytes: [UInt8], schema: Schema, file: String) throws -> (StoreState, DocumentHeader) {
        let (state, header) = try XMLDocumentFile.decode(bytes, schema: schema, codecs: codecs, file: file)
        return (state, DocumentHeader(version: header.version, journalSequence: header.journalSequence, journalHeader: header.version >= XMLDocumentFile.journalHeaderVersion))
    }

    func recordedSchema(_ document: [UInt8], file: String) throws -> RecordedSchema {
        try XMLDocumentFile.recordedSchema(document, file: file)
    }

    func reshaped(for schema: Schema) -> XMLFormat { XMLFormat(schema: schema) }

    /// Every XML document has had a journal beside it since the first format version.
    func hasJournal(_ document: [UInt8]) -> Bool { true }

    func journalLine(sequence: Int64, commit: CommitContext) -> [UInt8] {
        XMLJournal.line(sequence: sequence, commit: commit, codecs: codecs)
    }

    func replay(_ journal: [UInt8], into state: inout StoreState, after sequence: Int64, file: String) throws -> (Journal.Scan, Int64) {
        try XMLJournal.replay(journal, into: &state, after: sequence, codecs: codecs, file: file)
    }
}
