import ArgumentParser
import Foundation
import StrataCSV
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataModel
import StrataSQLite
import StrataXML

/// The built-in backends by the names `--backend` takes, each with the configuration of a store
/// kept in one folder. The examples' only backend-specific code: everything else is `StrataModel`.
public enum ExampleBackend: String, CaseIterable, ExpressibleByArgument, Sendable {
    case sqlite, lmdb, json, csv, xml, memory

    /// A container for `types` whose store lives in `folder` (created if missing).
    public func container(for types: [any PersistentModel.Type], in folder: URL) throws -> ModelContainer {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch self {
        case .sqlite: return try ModelContainer(for: types, configurations: SQLiteStoreConfiguration(url: folder.appendingPathComponent("store.sqlite"), schema: .empty))
        case .lmdb: return try ModelContainer(for: types, configurations: LMDBStoreConfiguration(folder: folder.appendingPathComponent("store"), schema: .empty))
        case .json: return try ModelContainer(for: types, configurations: JSONStoreConfiguration(url: folder.appendingPathComponent("store.json"), schema: .empty, lockWait: .seconds(5)))
        case .csv: return try ModelContainer(for: types, configurations: CSVStoreConfiguration(folder: folder.appendingPathComponent("store"), schema: .empty, lockWait: .seconds(5)))
        case .xml: return try ModelContainer(for: types, configurations: XMLStoreConfiguration(url: folder.appendingPathComponent("store.xml"), schema: .empty, lockWait: .seconds(5)))
        case .memory: return try ModelContainer(for: types, configurations: MemoryStoreConfiguration(name: folder.path, schema: .empty))
        }
    }

    /// Forgets what a previous run left in `folder` (the memory backend's store lives in the process).
    public func destroy(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        if self == .memory { MemoryStore.destroy(name: folder.path) }
    }
}

/// The options every example takes: which backend, and where its store lives.
public struct ExampleOptions: ParsableArguments {
    /// The backend to store the example's data in.
    @Option(help: "The backend: \(ExampleBackend.allCases.map(\.rawValue).joined(separator: ", ")).") public var backend: ExampleBackend = .sqlite
    /// The folder of the store; each run starts it afresh.
    @Option(help: "The folder the store is kept in (emptied first, so every run prints the same).") public var path: String = "example-store"

    /// The options from the command line.
    public init() {}

    /// The store's folder as a URL.
    public var folder: URL { URL(fileURLWithPath: path, isDirectory: true) }
}
