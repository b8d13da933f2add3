import Foundation
import StrataBuiltinBackends
import StrataModel

/// A built-in backend (`BuiltinStores.all`) as the migration tests open it: one location, opened
/// again and again by different versions of the app (`ModelContainer(for:migrationPlan:configurations:)`).
struct MigrationBackend: CustomStringConvertible, Sendable {
    let name: String
    let open: @Sendable (URL, [any PersistentModel.Type], (any SchemaMigrationPlan.Type)?) throws -> ModelContainer
    /// Opens as `open` does, read-only (the store's configuration with `isReadOnly`).
    let openReadOnly: @Sendable (URL, [any PersistentModel.Type], (any SchemaMigrationPlan.Type)?) throws -> ModelContainer
    var description: String { name }

    init<Factory: BuiltinStoreFactory>(name: String, _ factory: Factory) {
        let stores = factory.stores
        self.name = name
        self.open = { dir, types, plan in try ModelContainer(for: types, migrationPlan: plan, configurations: stores.configuration(dir, .empty)) }
        self.openReadOnly = { dir, types, plan in
            var configuration = stores.configuration(dir, .empty)
            configuration.isReadOnly = true
            return try ModelContainer(for: types, migrationPlan: plan, configurations: configuration)
        }
    }

    /// Every built-in backend, the memory backend first, and PostgreSQL when a server is named
    /// (`STRATA_POSTGRES_URL`, which `make test` exports).
    static let all: [MigrationBackend] = BuiltinStores.referenceFirstWithServers.map { MigrationBackend(name: $0.name, $0.factory) }
}

/// One store location for a test (a `ModelFixture`'s: removed, and the memory store destroyed, at the end).
final class MigrationFixture {
    let backend: MigrationBackend
    private let place: ModelFixture
    var directory: URL { place.directory }

    init(_ backend: MigrationBackend) throws {
        self.backend = backend
        place = try ModelFixture(ModelBackend(name: backend.name) { try backend.open($0, $1, nil) })
    }

    /// Opens the store as an app whose models are `types`, with `plan` if given.
    func open(_ types: [any PersistentModel.Type], plan: (any SchemaMigrationPlan.Type)? = nil) throws -> ModelContainer {
        try backend.open(directory, types, plan)
    }

    /// Opens the store as the app of `version` with `plan`.
    func open(_ version: any VersionedSchema.Type, plan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        try backend.open(directory, version.models, plan)
    }

    /// Opens the store read-only as an app whose models are `types`, without a plan.
    func openReadOnly(_ types: [any PersistentModel.Type]) throws -> ModelContainer {
        try backend.openReadOnly(directory, types, nil)
    }

    /// Opens the store read-only as the app of `version` with `plan`.
    func openReadOnly(_ version: any VersionedSchema.Type, plan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        try backend.openReadOnly(directory, version.models, plan)
    }
}
