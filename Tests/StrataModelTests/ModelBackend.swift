import Foundation
import StrataBuiltinBackends
import StrataMemory
import StrataModel

/// A built-in backend (`BuiltinStores.all`, and `servers` when a server is named) as the model tests
/// open it; the memory backend comes first.
struct ModelBackend: CustomStringConvertible, Sendable {
    let name: String
    let open: @Sendable (URL, [any PersistentModel.Type]) throws -> ModelContainer
    var description: String { name }

    init(name: String, open: @escaping @Sendable (URL, [any PersistentModel.Type]) throws -> ModelContainer) {
        self.name = name
        self.open = open
    }

    init<Factory: BuiltinStoreFactory>(name: String, _ factory: Factory) {
        let stores = factory.stores
        self.init(name: name) { dir, types in try ModelContainer(for: types, configurations: stores.configuration(dir, .empty)) }
    }

    /// The embedded backends, and PostgreSQL when a server is named (`make test` starts one).
    static let all: [ModelBackend] = BuiltinStores.referenceFirstWithServers.map { ModelBackend(name: $0.name, $0.factory) }
}

/// A fresh location for one test, and the containers opened on it.
final class ModelFixture {
    static var types: [any PersistentModel.Type] { [Trip.self, Sample.self, AuditLog.self, User.self, Person.self] }
    let backend: ModelBackend
    let directory: URL

    init(_ backend: ModelBackend) throws {
        self.backend = backend
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-model-\(backend.name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Opens (or reopens) the container at this fixture's location.
    func open() throws -> ModelContainer { try backend.open(directory, Self.types) }

    deinit {
        try? FileManager.default.removeItem(at: directory)
        MemoryStore.destroy(name: directory.path)
    }
}
