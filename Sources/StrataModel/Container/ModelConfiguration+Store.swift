import Foundation
import StrataCSV
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataSQLite
import StrataXML

/// Which built-in backend a `ModelConfiguration` opens.
enum ModelConfigurationBackend: String, Sendable {
    case memory, sqlite, json, xml, lmdb, csv

    /// The backend for a configuration: memory when in-memory, else by the URL's extension.
    init(_ configuration: ModelConfiguration) {
        if configuration.isStoredInMemoryOnly { self = .memory; return }
        switch configuration.url.pathExtension.lowercased() {
        case "json": self = .json
        case "xml": self = .xml
        case "lmdb": self = .lmdb
        case "csv": self = .csv
        default: self = .sqlite
        }
    }
}

/// A store opened for a container: the store behind the model layer's interface, and the backend
/// configuration it was opened with.
struct OpenedStore {
    let store: any ModelStore
    let configuration: any Strata.DataStoreConfiguration
}

/// Opens the store a `ModelConfiguration` describes, holding `schema`.
///
/// The one place where the model layer knows the built-in backends (docs/architecture.md, "The
/// model layer opens the built-in backends"). A migration plan, when the model layer has one,
/// belongs here too: it is applied between reading what the location holds and opening it with
/// `schema`.
///
/// - Throws: `unsupported` for CloudKit sync; `invalidRequest` for an in-memory store that allows no
///   save (it could never hold anything); whatever the backend throws on open (`schemaMismatch`,
///   `corruptStore`, `storeLocked`, a missing store when read-only…).
func openStore(_ configuration: ModelConfiguration, schema: Schema, plan: ResolvedMigrationPlan? = nil, models: ModelSchema? = nil) throws -> OpenedStore {
    if let database = configuration.cloudKitDatabase.privateDatabase {
        throw StrataError(.unsupported, "ModelConfiguration '\(configuration.name)' asks to sync with the CloudKit database '\(database)'; CloudKit does not exist on Linux. Use cloudKitDatabase: .none (or .automatic, which syncs nothing here).")
    }
    let readOnly = !configuration.allowsSave
    let backend = ModelConfigurationBackend(configuration)
    if backend == .memory {
        guard !readOnly else {
            throw StrataError(.invalidRequest, "ModelConfiguration '\(configuration.name)' is in memory and allows no save: such a store starts empty and could never hold anything. Allow saves, or give a URL of a store to read.")
        }
        // A fresh store per container, as in SwiftData: memory stores of one name share their data.
        return try openBackend(MemoryStoreConfiguration(name: "\(configuration.name)-\(UUID().uuidString)", schema: schema), models: models)
    }
    let url = configuration.url
    if !readOnly {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    }
    switch backend {
    case .memory, .sqlite: return try openBackend(SQLiteStoreConfiguration(url: url, schema: schema, isReadOnly: readOnly), plan: plan, models: models)
    case .json: return try openBackend(JSONStoreConfiguration(url: url, schema: schema, isReadOnly: readOnly), plan: plan, models: models)
    case .xml: return try openBackend(XMLStoreConfiguration(url: url, schema: schema, isReadOnly: readOnly), plan: plan, models: models)
    case .lmdb: return try openBackend(LMDBStoreConfiguration(folder: url, schema: schema, isReadOnly: readOnly), plan: plan, models: models)
    case .csv: return try openBackend(CSVStoreConfiguration(folder: url, schema: schema, isReadOnly: readOnly), plan: plan, models: models)
    }
}

/// Opens a backend's own configuration, first migrating the store with `plan` when there is one
/// (`MigrationRunner`).
///
/// Without a plan, a store whose recorded schema differs from the models' by lightweight changes
/// only is migrated on open, as SwiftData's container does (`DataStore.openMigrating`); anything
/// else, and a difference that would drop an entity, is `schemaMismatch` naming both versions and
/// what differs, the store untouched (docs/migrations.md). `models`, the model types behind
/// `configuration.schema`, give the values of their non-literal initializers to such a migration
/// (`fillInitialValues`).
func openBackend<Configuration: Strata.DataStoreConfiguration>(_ configuration: Configuration, plan: ResolvedMigrationPlan? = nil, models: ModelSchema? = nil) throws -> OpenedStore {
    guard let plan else {
        do {
            return OpenedStore(store: ModelStoreBox(try Configuration.Store.openMigrating(configuration)), configuration: configuration)
        } catch let refusal as StrataError where refusal.code == .schemaMismatch {
            // Refused with the store untouched; a store that lacks values only the models'
            // initializers give is filled, then opened (the usual open pays nothing for this).
            guard let models, try fillInitialValues(configuration, models) else { throw refusal }
            return OpenedStore(store: ModelStoreBox(try Configuration.Store.openMigrating(configuration)), configuration: configuration)
        }
    }
    try MigrationRunner(plan: plan, configuration: configuration).run()
    return OpenedStore(store: ModelStoreBox(try Configuration.Store(configuration)), configuration: configuration)
}

/// After an open without a plan was refused: when the store lacks required attributes (or holds
/// them as optional) whose model initializer is not a literal (`var created: Date = Date.now`),
/// the store migrates to the models' schema with the value each initializer gives now as that
/// attribute's default, so every record gets it, as SwiftData fills the default it evaluates; the
/// `openMigrating` that follows records the models' own schema (a change of default only). Each
/// of the two steps is the store's atomic migration, and between them the store holds every
/// record, so a kill leaves a store the next launch migrates the rest of the way.
///
/// - Returns: whether the store was filled (`false`: nothing to fill, and the first refusal stands).
/// - Throws: the refusal of the filling open when it is refused too, which names what still needs
///   code (the first refusal may name an attribute that only needed filling), a newer store or a
///   read-only open; the filling migration's own errors (a unique constraint the data
///   violates…). The store is untouched after any of them.
private func fillInitialValues<Configuration: Strata.DataStoreConfiguration>(_ configuration: Configuration, _ models: ModelSchema) throws -> Bool {
    guard let recorded = try? Configuration.Store.recordedSchema(configuration), let old = recorded.schema,
          let filled = try models.filling(configuration.schema, from: old) else { return false }
    var filling = configuration
    filling.schema = filled
    _ = try Configuration.Store.openMigrating(filling)
    return true
}

extension ModelConfiguration {
    /// The `ModelConfiguration` that describes a store opened through a backend's own
    /// configuration (what `ModelContainer.configurations` lists for such a container).
    init(describing configuration: any Strata.DataStoreConfiguration) {
        let location: URL
        switch configuration {
        case let c as SQLiteStoreConfiguration: location = c.url
        case let c as JSONStoreConfiguration: location = c.url
        case let c as XMLStoreConfiguration: location = c.url
        case let c as LMDBStoreConfiguration: location = c.folder
        case let c as CSVStoreConfiguration: location = c.folder
        case is MemoryStoreConfiguration: location = Self.memoryURL
        default: location = URL(fileURLWithPath: configuration.name)
        }
        self.init(configuration.name, schema: configuration.schema, url: location, allowsSave: !configuration.isReadOnly, cloudKitDatabase: .none)
    }
}
