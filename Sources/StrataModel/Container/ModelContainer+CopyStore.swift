import Foundation
import StrataCSV
import StrataFileSupport
import StrataJSON
import StrataLMDB
import StrataSQLite
import StrataXML

extension ModelContainer {
    /// Copies the store `source` describes into a new store at `destination`, of the backend
    /// `destination`'s URL picks (`.json`, `.xml`, `.lmdb`, `.csv`, else SQLite), with every record
    /// and relationship, read at the schema the source store records: an app switches backends at
    /// launch with its data, then opens a container on `destination`.
    ///
    /// **Strata's own API**: SwiftData has no such call (Core Data's nearest is
    /// `NSPersistentStoreCoordinator.migratePersistentStore(_:to:options:type:)`, Apple platforms
    /// only). It is `strata convert` for a program (docs/convert.md): written in batches
    /// (`StoreCopy`), verified record by record, in a staging folder beside `destination`; the
    /// finished store's files are then renamed into place, its main file or folder last, so a store
    /// appears at `destination` only complete. Primary keys carry over when the source's keys have
    /// no gaps (the report's `keyMap` says which moved).
    ///
    /// - Throws: `invalidRequest` for an in-memory configuration (nothing outlives its container) or
    ///   when something exists at `destination`; `ioFailure` when no store is at `source`;
    ///   `StoreCopy.copy`'s errors. On any error nothing is left at `destination`.
    @discardableResult
    public static func copyStore(from source: ModelConfiguration, to destination: ModelConfiguration, batchSize: Int = 2_000) throws -> StoreCopy.Report {
        for configuration in [source, destination] where configuration.isStoredInMemoryOnly {
            throw StrataError(.invalidRequest, "ModelConfiguration '\(configuration.name)' is in memory: its store lives and dies with one container, so there is nothing to copy from or to.")
        }
        let target = destination.url
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw StrataError(.invalidRequest, "\(target.path) exists already; copy a store to a location where nothing is yet.", file: target.path)
        }
        let input = try backendConfiguration(source, at: source.url, readOnly: true)
        let parent = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).strata-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: staging) }
        let output = try backendConfiguration(destination, at: staging.appendingPathComponent(target.lastPathComponent), readOnly: false)
        let report = try copy(input, into: output, batchSize: batchSize)
        // The store is closed now; its companion files (a journal) go first, the main item last.
        let names = try FileManager.default.contentsOfDirectory(atPath: staging.path)
        for name in names.filter({ $0 != target.lastPathComponent }) + [target.lastPathComponent] where names.contains(name) {
            try DurableFile.moveWithoutReplacing(staging.appendingPathComponent(name).path, to: parent.appendingPathComponent(name).path)
        }
        return report
    }

    /// The backend configuration `configuration`'s URL picks, located at `url`.
    private static func backendConfiguration(_ configuration: ModelConfiguration, at url: URL, readOnly: Bool) throws -> any Strata.DataStoreConfiguration {
        switch ModelConfigurationBackend(configuration) {
        case .memory, .sqlite: return SQLiteStoreConfiguration(url: url, schema: .empty, isReadOnly: readOnly)
        case .json: return JSONStoreConfiguration(url: url, schema: .empty, isReadOnly: readOnly)
        case .xml: return XMLStoreConfiguration(url: url, schema: .empty, isReadOnly: readOnly)
        case .lmdb: return LMDBStoreConfiguration(folder: url, schema: .empty, isReadOnly: readOnly)
        case .csv: return CSVStoreConfiguration(folder: url, schema: .empty, isReadOnly: readOnly)
        }
    }

    private static func copy<Input: Strata.DataStoreConfiguration>(_ input: Input, into output: any Strata.DataStoreConfiguration, batchSize: Int) throws -> StoreCopy.Report {
        var input = input
        let schema = try StoreCopy.sourceSchema(try Input.Store.recordedSchema(input), at: input.name)
        input.schema = schema
        return try copy(from: try Input.Store(input), into: output, schema: schema, batchSize: batchSize)
    }

    private static func copy<Source: Strata.DataStore, Output: Strata.DataStoreConfiguration>(from source: Source, into output: Output, schema: Strata.Schema, batchSize: Int) throws -> StoreCopy.Report {
        var output = output
        output.schema = schema
        return try StoreCopy.copy(from: source, to: try Output.Store(output), options: StoreCopy.Options(batchSize: batchSize))
    }
}
