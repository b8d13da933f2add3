import Foundation
@_spi(StrataEngine) import Strata

/// The configuration of a store kept in one `JournaledDocument` (JSON, XML): the document file, the schema, and how the
/// journal and the writer lock behave. `JSONStoreConfiguration` and `XMLStoreConfiguration` declare
/// these properties; opening the document from them is written once here.
public protocol JournaledDocumentConfiguration: DataStoreConfiguration {
    /// The document file; the journal (`.journal`) sits beside it.
    var url: URL { get }
    /// How long opening waits for another writer that holds the store; `nil` fails at once.
    var lockWait: Duration? { get }
    /// The journal size past which it is folded into the document (`0`: fold on every save).
    var journalThreshold: Int { get }
}

extension JournaledDocumentConfiguration {
    /// The document path.
    public var name: String { url.path }

    /// Opens (or, for a writer, creates) the document and journal this configuration describes.
    @_spi(StrataEngine) public func openDocument<Format: DocumentFormat>(format: Format) throws -> JournaledDocument<Format> {
        try JournaledDocument(url: url, schema: schema, format: format, isReadOnly: isReadOnly, lockWait: lockWait, journalThreshold: journalThreshold, recordsHistory: recordsHistory)
    }
}
