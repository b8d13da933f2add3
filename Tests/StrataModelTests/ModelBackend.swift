import Foundation
import StrataCSV
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataModel
import StrataSQLite
import StrataXML

/// A built-in backend as the model tests open it; add a line to `all` for a new backend.
struct ModelBackend: CustomStringConvertible, Sendable {
    let name: String
    let open: @Sendable (URL, [any PersistentModel.Type]) throws -> ModelContainer
    var description: String { name }

    static let all: [ModelBackend] = [
        ModelBackend(name: "memory") { dir, types in try ModelContainer(for: types, configurations: MemoryStoreConfiguration(name: dir.path, schema: .empty)) },
        ModelBackend(name: "sqlite") { dir, types in try ModelContainer(for: types, configurations: SQLiteStoreConfiguration(url: dir.appendingPathComponent("store.sqlite"), schema: .empty)) },
        ModelBackend(name: "json") { dir, types in try ModelContainer(for: types, configurations: JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: .empty, lockWait: .seconds(10))) },
        ModelBackend(name: "lmdb") { dir, types in try ModelContainer(for: types, configurations: LMDBStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: .empty)) },
        ModelBackend(name: "xml") { dir, types in try ModelContainer(for: types, configurations: XMLStoreConfiguration(url: dir.appendingPathComponent("store.xml"), schema: .empty, lockWait: .seconds(10))) },
        ModelBackend(name: "csv") { dir, types in try ModelContainer(for: types, configurations: CSVStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: .empty, lockWait: .seconds(10))) },
    ]
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
