import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// Opens a `JSONStore`: a document file and a schema.
///
/// ```swift
/// let store = try JSONStore(JSONStoreConfiguration(url: dir.appendingPathComponent("app.json"), schema: schema))
/// let reader = try JSONStore(JSONStoreConfiguration(url: dir.appendingPathComponent("app.json"), schema: schema, isReadOnly: true))
/// ```
public struct JSONStoreConfiguration: JournaledDocumentConfiguration {
    /// The store type this opens.
    public typealias Store = JSONStore
    /// The document file; the journal (`.journal`) sits beside it.
    public var url: URL
    /// The schema of the data.
    public var schema: Schema
    /// How long opening waits for another writer that holds the store; `nil` fails at once with
    /// `storeLocked`. Read-only stores never wait.
    public var lockWait: Duration?
    /// The journal is folded into the document when it grows past this many bytes or past half the
    /// document, whichever is larger, so folding costs O(store) only once per O(store) of changes.
    /// `0` folds on every save (the whole document is rewritten each time; for tools and tests).
    public var journalThreshold: Int
    /// Reads only: never creates or changes a file, takes no lock, and sees a writer's saves.
    public var isReadOnly: Bool
    /// Whether saves record history, in `<document>.history` beside the document (a store opened
    /// without it still reads and deletes what others recorded).
    public var recordsHistory: Bool

    /// Describes a JSON store.
    public init(url: URL, schema: Schema, lockWait: Duration? = nil, journalThreshold: Int = 1 << 20, isReadOnly: Bool = false, recordsHistory: Bool = false) {
        self.url = url
        self.schema = schema
        self.lockWait = lockWait
        self.journalThreshold = journalThreshold
        self.isReadOnly = isReadOnly
        self.recordsHistory = recordsHistory
    }
}
