import Foundation
@_spi(StrataEngine) import Strata

/// The worked example of docs/writing-a-backend.md: a complete file backend on the shared engine in
/// one file. The whole store is one JSON document (written to a temporary file and renamed over the
/// old one, so a crash leaves the old or the new document, never half of one), guarded by an
/// advisory lock, checked against the schema's fingerprint when opened. Test-only: it shows the
/// engine calls a backend needs and runs the whole conformance suite in CI; it is not a product.
public struct ExampleFileConfiguration: DataStoreConfiguration {
    /// The store this configuration opens.
    public typealias Store = ExampleFileStore
    /// The document's location.
    public var url: URL
    /// The schema of the data.
    public var schema: Schema
    /// Opens without creating anything; saves fail with `readOnlyStore`.
    public var isReadOnly = false
    /// How long opening waits for another instance to let go of the lock before `storeLocked`
    /// (nil: fail at once). A lock can be held a moment by someone else's child process: between
    /// `fork` and `exec`, a child shares every open file description of its parent, locks included.
    public var lockWait: Duration?
    /// The file name.
    public var name: String { url.lastPathComponent }

    /// A configuration for the document at `url`.
    public init(url: URL, schema: Schema, lockWait: Duration? = nil) {
        self.url = url
        self.schema = schema
        self.lockWait = lockWait
    }
}

/// The example store: a `RecordEngine` that persists its whole state after each save.
public final class ExampleFileStore: DataStore {
    /// Snapshots are the core's default.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: ExampleFileConfiguration
    private let engine: RecordEngine
    private let lock: Int32

    /// Opens the document, creating it when missing (unless read-only).
    ///
    /// - Throws: `storeLocked` when another instance holds the location, `schemaMismatch` for a
    ///   document of another schema, `corruptStore` for one that does not decode.
    public init(_ configuration: ExampleFileConfiguration) throws {
        self.configuration = configuration
        let path = configuration.url.path
        // 1. Lock: a second instance on one location must fail (or share safely; this one fails).
        let lock = open(path + ".lock", (configuration.isReadOnly ? O_RDONLY : O_RDWR | O_CREAT) | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw StrataError(.ioFailure, "Cannot open \(path).lock (errno \(errno)).", file: path) }
        let deadline = ContinuousClock.now + (configuration.lockWait ?? .zero)
        while flock(lock, (configuration.isReadOnly ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(lock)
                throw StrataError(.storeLocked, "Another instance has \(path) open; close it first.", file: path)
            }
            usleep(2_000)  // no notification exists for a released flock: poll until the deadline
        }
        self.lock = lock
        do {
            // 2. Load: an empty state, or the document's records, counters and identifier.
            let state: StoreState
            if let data = FileManager.default.contents(atPath: path) {
                state = try Self.load(data, schema: configuration.schema, file: path)
            } else if configuration.isReadOnly {
                throw StrataError(.unknownEntity, "No store at \(path) to open read-only.", file: path)
            } else {
                state = StoreState(schema: configuration.schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier())
                try Self.write(state, to: configuration.url)
            }
            self.engine = RecordEngine(state: state)
        } catch {
            close(lock)
            throw error
        }
    }

    deinit { close(lock) }

    /// The identifier kept in the document.
    public var identifier: String { engine.storeIdentifier }

    /// Everything the engine gives, persisted.
    public var capabilities: StoreCapabilities { [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess] }

    /// Fetches from the engine.
    public func fetch(_ descriptor: FetchDescriptor) throws -> [DefaultSnapshot] { try engine.fetch(descriptor) }
    /// Counts in the engine.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int { try engine.fetchCount(descriptor) }
    /// Identifiers from the engine.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] { try engine.fetchIdentifiers(descriptor) }

    /// 3. Save: the engine validates and applies; `persist` writes the next state before it is
    /// published, so a failed write changes nothing.
    public func save(_ request: SaveRequest<DefaultSnapshot>) throws -> SaveResult<DefaultSnapshot> {
        guard !configuration.isReadOnly else { throw StrataError(.readOnlyStore, "\(configuration.name) was opened read-only.", file: configuration.url.path) }
        return try engine.save(request) { commit in try Self.write(commit.next, to: configuration.url) }
    }

    // MARK: The document

    private struct Document: Codable {
        var fingerprint: String
        /// The declaration and version (`DataStore.recordedSchema`); absent in older documents.
        var schema: Schema?
        var version: Schema.Version?
        var storeIdentifier: String
        /// Per entity name: the key counter and the records in key order.
        var tables: [String: Table]
    }

    private struct Table: Codable {
        var nextKey: Int64
        var records: [Row]
    }

    /// One record: attribute values (`Value`'s Codable form is bit-exact), then each relationship's
    /// target keys (a to-one as zero or one key).
    private struct Row: Codable {
        var key: Int64
        var attributes: [Value]
        var links: [[Int64]]
    }

    private static func write(_ state: StoreState, to url: URL) throws {
        var tables: [String: Table] = [:]
        for entity in state.schema.entities {
            var rows: [Row] = []
            state.forEachRecord(entity) { key, record in
                rows.append(Row(key: key, attributes: record.attributes, links: record.links.map(\.keys)))
                return true
            }
            tables[entity.name] = Table(nextKey: state.nextPrimaryKey(entity), records: rows)
        }
        let document = Document(fingerprint: state.schema.fingerprint, schema: state.schema, version: state.schema.version, storeIdentifier: state.storeIdentifier, tables: tables)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try encoder.encode(document).write(to: url, options: .atomic)  // temporary file + rename
        } catch {
            throw StrataError(.ioFailure, "Cannot write \(url.path): \(error.localizedDescription)", file: url.path)
        }
    }

    private static func load(_ data: Data, schema: Schema, file: String) throws -> StoreState {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw StrataError(.corruptStore, "\(file) is not a store document: \(error)", file: file)
        }
        guard document.fingerprint == schema.fingerprint else {
            throw StrataError(.schemaMismatch, "\(file) holds data of schema \(document.fingerprint), not \(schema.fingerprint). Open it with its schema.", file: file)
        }
        var state = StoreState(schema: schema, storeIdentifier: document.storeIdentifier)
        for entity in schema.entities {
            guard let table = document.tables[entity.name] else { continue }
            for row in table.records {
                guard row.links.count == entity.relationships.count else {
                    throw StrataError(.corruptStore, "A record of '\(entity.name)' in \(file) has \(row.links.count) relationships.", entity: entity.name, file: file)
                }
                let links = zip(row.links, entity.relationshipIsToMany).map { keys, isToMany in isToMany ? Link.many(keys) : Link.one(keys.first) }
                try state.load(entity, key: row.key, record: StoredRecord(attributes: row.attributes, links: links))
            }
            state.setNextPrimaryKey(entity, atLeast: table.nextKey)
        }
        try state.finishLoading()
        return state
    }
}

/// 4. Migration, the generic way: the backend names a staging location and an atomic swap, and the
/// core's copy-and-swap path (`CopyAndSwapMigratable`) does the rest. It reads the schema recorded
/// in the document too, so `openMigrating` and `strata schema` work with it.
extension ExampleFileStore: CopyAndSwapMigratable {
    /// The declaration and version the document records (a fingerprint only for older documents).
    public static func recordedSchema(_ configuration: ExampleFileConfiguration) throws -> RecordedSchema? {
        guard let data = FileManager.default.contents(atPath: configuration.url.path) else { return nil }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw StrataError(.corruptStore, "\(configuration.url.path) is not a store document: \(error)", file: configuration.url.path)
        }
        guard var schema = document.schema else { return RecordedSchema(legacyFingerprint: document.fingerprint, canonicalDescription: nil) }
        schema.version = document.version ?? schema.version
        return RecordedSchema(schema)
    }

    /// `<document>.migrating` beside the document.
    public static func stagingConfiguration(for configuration: ExampleFileConfiguration, schema: Schema) throws -> ExampleFileConfiguration {
        var staging = configuration
        staging.url = configuration.url.appendingPathExtension("migrating")
        staging.schema = schema
        return staging
    }

    /// One rename: the migrated document replaces the old one.
    public static func replaceStore(_ configuration: ExampleFileConfiguration, with staging: ExampleFileConfiguration) throws {
        guard rename(staging.url.path, configuration.url.path) == 0 else {
            throw StrataError(.ioFailure, "Cannot move the migrated document into place (errno \(errno)).", file: configuration.url.path)
        }
        removeStore(staging)
    }

    /// Removes the staging document and its lock file.
    public static func removeStore(_ staging: ExampleFileConfiguration) {
        unlink(staging.url.path)
        unlink(staging.url.path + ".lock")
    }
}
