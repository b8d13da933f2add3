import Foundation
import Strata
import Synchronization

/// The CSV backend: a folder of spreadsheet-readable tables, committed atomically, on the shared engine.
///
/// One CSV file per entity and per many-to-many relationship, named by a manifest; a save rewrites
/// only the files of the entities it changed, beside the old ones, and switches the manifest
/// atomically. An advisory lock keeps a second process out (`storeLocked`). Snapshots are
/// `CSVSnapshot`s: rows of fields, typed only when read.
/// `docs/formats/csv.md` describes the files.
public final class CSVStore: DataStore {
    /// Snapshots keep their CSV fields.
    public typealias Snapshot = CSVSnapshot

    /// The configuration the store was opened with.
    public let configuration: CSVStoreConfiguration
    /// The identifier in every permanent identifier, kept in the manifest.
    public let identifier: String
    private let engine: RecordEngine
    private let layout: CSVLayout
    private let folder: CSVFolder
    private let manifest: Mutex<CSVFolder.Manifest>
    private let lockDescriptor: Int32

    /// Opens the folder, creating an empty store if it holds no manifest.
    ///
    /// - Throws: `corruptStore` naming the file, line and column of a malformed file,
    ///   `schemaMismatch`, `unsupported` for a newer format.
    public init(_ configuration: CSVStoreConfiguration) throws {
        self.configuration = configuration
        let layout = CSVLayout(schema: configuration.schema)
        let folder = CSVFolder(url: configuration.folder)
        self.layout = layout
        self.folder = folder
        try FileManager.default.createDirectory(at: configuration.folder, withIntermediateDirectories: true)
        let lockDescriptor = try folder.lock(wait: configuration.lockWait)
        var locked = true
        defer { if locked { close(lockDescriptor) } }
        let state: StoreState
        let manifest: CSVFolder.Manifest
        if let existing = try folder.readManifest() {
            guard existing.fingerprint == configuration.schema.fingerprint else {
                throw StrataError(.schemaMismatch, "The store holds data of schema \(existing.fingerprint), not \(configuration.schema.fingerprint). Open it with the schema it was written with.", file: folder.manifestURL.path)
            }
            state = try CSVLoader(layout: layout, folder: folder).load(existing)
            manifest = existing
        } else {
            let empty = StoreState(schema: configuration.schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier())
            var fresh = CSVFolder.Manifest(storeIdentifier: empty.storeIdentifier, fingerprint: configuration.schema.fingerprint, generation: 0, files: [:], nextKeys: [:])
            for entity in configuration.schema.entities {
                let name = "\(entity.name).0.csv"
                try folder.write(name, layout.rows(entity, in: empty))
                fresh.files[entity.name] = name
                fresh.nextKeys[entity.name] = 1
            }
            for pair in layout.pairs {
                let name = "\(pair.name).0.csv"
                try folder.write(name, layout.rows(pair, in: empty))
                fresh.files[pair.name] = name
            }
            try folder.commit(fresh)
            state = empty
            manifest = fresh
        }
        folder.removeStrays(keeping: manifest)
        self.identifier = state.storeIdentifier
        self.engine = RecordEngine(state: state)
        self.manifest = Mutex(manifest)
        self.lockDescriptor = lockDescriptor
        locked = false
    }

    deinit { close(lockDescriptor) }  // closing the descriptor releases the lock

    /// Everything the contract has.
    public var capabilities: StoreCapabilities {
        [.persistence, .orderedRelationships, .manyToMany, .largeValues, .concurrentAccess]
    }

    /// Fetches from memory as `CSVSnapshot`s.
    public func fetch(_ descriptor: FetchDescriptor) throws -> [CSVSnapshot] { try engine.fetch(descriptor) }
    /// Counts from memory.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int { try engine.fetchCount(descriptor) }
    /// Lists identifiers from memory.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] { try engine.fetchIdentifiers(descriptor) }

    /// Applies the save in memory, writes new versions of the files it changed and switches the
    /// manifest; if anything fails before the switch, nothing is committed.
    public func save(_ request: SaveRequest<CSVSnapshot>) throws -> SaveResult<CSVSnapshot> {
        try engine.save(request) { commit in
            guard !commit.changes.isEmpty else { return }
            try manifest.withLock { manifest in
                var next = manifest
                next.generation += 1
                var changed = Set(layout.schema.entities.filter { e in
                    !commit.changes.inserted[e.index].isEmpty || !commit.changes.updated[e.index].isEmpty || !commit.changes.deleted[e.index].isEmpty
                }.map(\.index))
                for e in changed { changed.formUnion(layout.orderDependents(layout.schema.entities[e])) }
                var replaced: [String] = []
                for entity in layout.schema.entities where changed.contains(entity.index) {
                    let name = "\(entity.name).\(next.generation).csv"
                    try folder.write(name, layout.rows(entity, in: commit.next))
                    if let old = next.files[entity.name] { replaced.append(old) }
                    next.files[entity.name] = name
                }
                for pair in layout.pairs where changed.contains(pair.left.entity.index) || changed.contains(pair.right.entity.index) {
                    let name = "\(pair.name).\(next.generation).csv"
                    try folder.write(name, layout.rows(pair, in: commit.next))
                    if let old = next.files[pair.name] { replaced.append(old) }
                    next.files[pair.name] = name
                }
                for entity in layout.schema.entities { next.nextKeys[entity.name] = commit.next.nextPrimaryKey(entity) }
                try folder.commit(next)
                manifest = next
                for old in replaced { unlink(folder.url.appendingPathComponent(old).path) }
            }
        }
    }
}
