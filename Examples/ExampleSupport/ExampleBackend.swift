import ArgumentParser
import Foundation
import StrataBuiltinBackends
import StrataConformance
import StrataModel

/// A built-in backend by the name `--backend` takes (`BuiltinStores.all`, the one list of built-in
/// backends), with its store kept in one folder. The examples' only backend-specific code: everything
/// else is `StrataModel`.
public struct ExampleBackend: Hashable, Sendable, CustomStringConvertible, ExpressibleByArgument {
    /// The backend's name (`sqlite`, `memory`, …).
    public let rawValue: String

    /// The backend called `rawValue`, if it is built in.
    public init?(rawValue: String) {
        guard BuiltinStores.named(rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// The backend named on the command line.
    public init?(argument: String) { self.init(rawValue: argument) }

    /// Every built-in backend, in the order `strata backends` lists them.
    public static var allCases: [ExampleBackend] { BuiltinStores.all.map { ExampleBackend(rawValue: $0.name)! } }
    /// Every built-in backend, and PostgreSQL when a server is named (`STRATA_POSTGRES_URL`, as
    /// `make test` and `make postgres-up` set it).
    public static var allWithServers: [ExampleBackend] {
        allCases + (PostgresServer.url == nil ? [] : BuiltinStores.servers.map { ExampleBackend(rawValue: $0.name)! })
    }
    /// The names `--backend` takes, for its help.
    public static var allValueStrings: [String] { BuiltinStores.all.map(\.name) }
    /// The default backend.
    public static let sqlite = ExampleBackend(rawValue: "sqlite")!
    /// The reference backend the others are compared with.
    public static let memory = ExampleBackend(rawValue: "memory")!
    /// The name.
    public var description: String { rawValue }

    private var entry: BuiltinStore { BuiltinStores.named(rawValue)! }

    /// A container for `types` whose store lives in `folder` (created if missing), migrated with
    /// `migrationPlan` when one is given.
    public func container(for types: [any PersistentModel.Type], migrationPlan: (any SchemaMigrationPlan.Type)? = nil, in folder: URL) throws -> ModelContainer {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let factory: any BuiltinStoreFactory = entry.factory
        return try Self.openContainer(types, migrationPlan, folder, factory)
    }

    private static func openContainer<Factory: BuiltinStoreFactory>(_ types: [any PersistentModel.Type], _ migrationPlan: (any SchemaMigrationPlan.Type)?, _ folder: URL, _ factory: Factory) throws -> ModelContainer {
        try ModelContainer(for: types, migrationPlan: migrationPlan, configurations: factory.stores.configuration(folder, .empty))
    }

    /// A container for `types` whose store in `folder` records history (`recordsHistory`); with
    /// `readOnly`, an existing store opened for reading only (a worker beside the writer).
    /// `recordsHistory: false` opens the same store without recording (to measure what recording costs).
    public func historyContainer(for types: [any PersistentModel.Type], in folder: URL, readOnly: Bool = false, recordsHistory: Bool = true) throws -> ModelContainer {
        if !readOnly { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let factory: any BuiltinStoreFactory = entry.factory
        return try Self.openHistoryContainer(types, folder, factory, readOnly: readOnly, recordsHistory: recordsHistory)
    }

    private static func openHistoryContainer<Factory: BuiltinStoreFactory>(_ types: [any PersistentModel.Type], _ folder: URL, _ factory: Factory, readOnly: Bool, recordsHistory: Bool) throws -> ModelContainer {
        var configuration = factory.stores.configuration(folder, .empty)
        configuration.recordsHistory = recordsHistory
        configuration.isReadOnly = readOnly
        return try ModelContainer(for: types, configurations: configuration)
    }

    /// Forgets what a previous run left in `folder` (the memory backend's store lives in the process).
    public func destroy(_ folder: URL) {
        let factory: any BuiltinStoreFactory = entry.factory
        Self.destroyStore(folder, factory)
    }

    private static func destroyStore<Factory: BuiltinStoreFactory>(_ folder: URL, _ factory: Factory) {
        factory.stores.destroy(folder)
        try? FileManager.default.removeItem(at: folder)
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
