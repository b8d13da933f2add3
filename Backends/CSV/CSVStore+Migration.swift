import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The CSV backend's side of migration: the manifest records the schema (`schemaRecord`), and a
/// migration writes every table of the new schema beside the old files and switches the manifest.
extension CSVStore {
    /// The schema the manifest records, or `nil` when the folder holds no manifest. Never writes.
    ///
    /// - Throws: `corruptStore` for a damaged manifest, `unsupported` for a newer format.
    public static func recordedSchema(_ configuration: CSVStoreConfiguration) throws -> RecordedSchema? {
        let folder = CSVFolder(url: configuration.folder)
        return try folder.readManifest()?.recorded(file: folder.manifestPath)
    }

    /// Applies one schema change in the backend's atomic step (`StateMigratable`).
    public static func migrateStore(_ configuration: CSVStoreConfiguration, _ migration: SchemaMigration) throws {
        try migrateByRewriting(configuration, migration)
    }
}

/// The whole staged path of a migration plan in one atomic step.
@_spi(StrataEngine) extension CSVStore: StateMigratable {
    /// Migrates the store under its writer lock: reads every table at `source`, rewrites the
    /// records (`rewrite`: `StoreState.migrated(by:)`, or a whole staged path), writes every chunk of the destination's tables as
    /// new files (a new generation, beside the old ones) and switches the manifest in one atomic
    /// replace; the old files are removed after. A crash before the switch leaves the old store
    /// whole (the new files are strays the next save removes).
    ///
    /// - Throws: `ioFailure` when there is no store, `storeLocked`, `schemaMismatch` when the store
    ///   is not at `source`, `rewrite`'s errors — the files untouched.
    @_spi(StrataEngine) public static func migrateStore(_ configuration: CSVStoreConfiguration, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        let folder = CSVFolder(url: configuration.folder)
        guard FileStamp(folder.manifestPath) != nil else {
            throw noStoreToMigrate(folder)
        }
        let lock = try WriterLock(path: configuration.folder.path, store: configuration.folder.path, wait: configuration.lockWait)
        // Exclusive of the saves of this process's stores on the folder too (they share the lock).
        try lock.exclusively { try migrate(folder, from: source, to: destination, rewrite: rewrite) }
    }

    /// The error for a folder without a CSV store.
    private static func noStoreToMigrate(_ folder: CSVFolder) -> StrataError {
        StrataError(.ioFailure, "There is no CSV store in this folder (no manifest.json) to migrate.", file: folder.manifestPath)
    }

    /// `migrateStore`'s work, under the writer lock.
    private static func migrate(_ folder: CSVFolder, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        guard let manifest = try folder.readManifest() else {
            throw noStoreToMigrate(folder)
        }
        let recorded = try manifest.recorded(file: folder.manifestPath)
        guard recorded.fingerprint == source.fingerprint else {
            throw recorded.mismatch(opening: source, file: folder.manifestPath, reason: "The migration starts at another schema than the store holds")
        }
        let old = CSVLayout(schema: source)
        let state = try CSVLoader(layout: old, folder: folder).load(manifest)
        let next = try rewrite(state)
        try next.requireSchema(destination)
        let layout = CSVLayout(schema: destination)
        let schema = destination
        var written = manifest
        written.version = CSVManifest.version
        written.fingerprint = schema.fingerprint
        written.schema = schema.canonicalDescription
        written.record = RecordedSchema(schema).encoded()
        written.generation += 1
        written.files = [:]
        written.checksums = [:]
        written.nextKeys = [:]
        let chunks = CSVChunks.all(next, layout)
        func put(_ table: String, _ chunk: Int64, _ bytes: [UInt8]?) throws {
            guard let bytes else { return }
            let name = CSVChunks.name(table, chunk)
            let file = "\(name).\(written.generation).csv"
            written.files[name] = file
            written.checksums[file] = try folder.write(file, bytes)
        }
        for entity in schema.entities {
            for chunk in (chunks[entity.name] ?? []).sorted() { try put(entity.name, chunk, layout.rows(entity, chunk: chunk, in: next)) }
            written.nextKeys[entity.name] = next.nextPrimaryKey(entity)
        }
        for pair in layout.pairs {
            for chunk in (chunks[pair.name] ?? []).sorted() { try put(pair.name, chunk, layout.rows(pair, chunk: chunk, in: next)) }
        }
        try folder.commit(written)
        folder.removeUnnamed(previous: manifest, keeping: written, tables: Set(schema.entities.map(\.name) + layout.pairs.map(\.name)), everyStray: false)
    }
}
