@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The JSON backend's document and journal bytes, for the shared `JournaledDocument`.
struct JSONFormat: DocumentFormat {
    var name: String { "JSON" }
    var version: Int64 { JSONDocumentFile.version }

    func encode(_ state: StoreState, journalSequence: Int64, journalHeader: Bool) -> [UInt8] {
        JSONDocumentFile.encode(state, journalSequence: journalSequence, version: journalHeader ? JSONDocumentFile.version : JSONDocumentFile.journalHeaderVersion - 1)
    }

    func decode(_ bytes: [UInt8], schema: Schema, file: String) throws -> (StoreState, DocumentHeader) {
        let (state, header) = try JSONDocumentFile.decode(bytes, schema: schema, file: file)
        return (state, DocumentHeader(version: header.version, journalSequence: header.journalSequence, journalHeader: header.version >= JSONDocumentFile.journalHeaderVersion))
    }

    func reshaped(for schema: Schema) -> JSONFormat { self }

    func recordedSchema(_ document: [UInt8], file: String) throws -> RecordedSchema {
        try JSONDocumentFile.recordedSchema(document, file: file)
    }

    /// Version 1 documents had no journal; every sealed (version 2 or later) document has one.
    func hasJournal(_ document: [UInt8]) -> Bool { JSONDocumentFile.looksSealed(document) }

    func journalLine(sequence: Int64, commit: CommitContext) -> [UInt8] {
        JSONJournal.line(sequence: sequence, commit: commit)
    }

    func replay(_ journal: [UInt8], into state: inout StoreState, after sequence: Int64, file: String) throws -> (Journal.Scan, Int64) {
        try JSONJournal.replay(journal, into: &state, after: sequence, file: file)
    }
}
