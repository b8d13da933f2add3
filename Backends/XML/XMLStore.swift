import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The XML backend: a well-formed, schema-valid document, crash-safe, whose small saves append to a journal.
///
/// The whole store lives in memory on the shared engine after open, so fetches never read the file.
/// A save appends its changes — only the records it changed — to `<file>.journal` and syncs it; when
/// the journal grows past a threshold it is folded into the document (written to a temporary file,
/// synced, renamed over, folder synced). A crash at any moment leaves the old or the new state. One
/// writer at a time (`storeLocked`, or a wait), any number of read-only stores beside it. Before
/// every save, and at most every 5 ms before a fetch, the store checks the files' identity and size
/// and reloads them if someone else changed them (a reader sees the writer's saves this way). All of
/// that is `JournaledDocument`, shared with the other document backend; this type adds the XML
/// bytes (`XMLFormat`). `docs/formats/xml.md` describes the files.
public final class XMLStore: HistoryRecordingStore {
    /// Snapshots are the core's default.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: XMLStoreConfiguration
    let document: JournaledDocument<XMLFormat>

    /// Opens the store; a writer creates it if neither the document nor its journal exists, a
    /// reader never writes.
    ///
    /// - Throws: `storeLocked` if another writer holds it (saying whether in this process),
    ///   `corruptStore` (with libxml2's line and column, or the byte offset) for a damaged document
    ///   or journal, or a document missing beside its journal; `schemaMismatch` listing what
    ///   differs, `unsupported` for a newer format or for entity and property names XML cannot
    ///   carry, `ioFailure` for a read-only open of a missing store.
    public init(_ configuration: XMLStoreConfiguration) throws {
        self.configuration = configuration
        for entity in configuration.schema.entities {
            for name in [entity.name] + entity.attributes.map(\.name) + entity.relationships.map(\.name) where !XMLWriter.canCarry(name) {
                throw StrataError(.unsupported, "The name '\(name.debugDescription)' holds a control character XML 1.0 cannot carry; the XML backend cannot store this schema.", entity: entity.name)
            }
        }
        document = try configuration.openDocument(format: XMLFormat(schema: configuration.schema))
    }

    /// The identifier in every permanent identifier, kept in the document.
    public var identifier: String { document.identifier }

    /// Everything the contract has.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess, .history, .chosenKeys]
    }

    /// Fetches from memory (after a cheap check that the files did not change underneath).
    public func fetch(_ descriptor: FetchDescriptor) throws -> [DefaultSnapshot] {
        try document.fetch(descriptor)
    }

    /// The record `id` names, from memory by its key (no descriptor, no result array).
    public func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? {
        try document.snapshot(for: id)
    }

    /// Counts from memory.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        try document.fetchCount(descriptor)
    }

    /// Lists identifiers from memory.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        try document.fetchIdentifiers(descriptor)
    }

    /// Applies the save in memory, appends its changes to the journal (synced) and commits; folds
    /// the journal into the document when it has grown past the threshold, or when the document is
    /// of an older format version.
    ///
    /// - Throws: `readOnlyStore` on a read-only store; the contract's errors; `storeLocked` if the
    ///   journal this store locked was deleted or replaced underneath it.
    public func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        try document.save(request)
    }

    /// The recorded history (`<document>.history`), as committed by any process.
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try document.fetchHistory(query)
    }

    /// Removes history up to and including `token`, atomically (the history file is rewritten).
    ///
    /// - Throws: `readOnlyStore` on a read-only store; `invalidRequest` for another store's token.
    public func deleteHistory(through token: StoreHistoryToken) throws {
        try document.deleteHistory(through: token)
    }
}
