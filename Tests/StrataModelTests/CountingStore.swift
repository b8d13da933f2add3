import Foundation
import StrataMemory
import StrataModel
import Synchronization

/// Every store call a `CountingStore` received, in order.
final class StoreCallLog: Sendable {
    private let calls = Mutex<[String]>([])
    func record(_ call: String) { calls.withLock { $0.append(call) } }
    /// The calls so far.
    var all: [String] { calls.withLock { $0 } }
    /// Forgets the calls so far.
    func reset() { calls.withLock { $0 = [] } }
}

/// A memory store that logs each fetch, count and save: the tests count store round trips
/// through it (a real store underneath, only observed).
final class CountingStore: Strata.DataStore {
    typealias Snapshot = Strata.DefaultSnapshot
    let configuration: CountingStoreConfiguration
    private let base: MemoryStore

    init(_ configuration: CountingStoreConfiguration) throws {
        self.configuration = configuration
        base = try MemoryStore(configuration.base)
    }

    var identifier: String { base.identifier }
    var capabilities: StoreCapabilities { base.capabilities }

    func fetch(_ descriptor: Strata.FetchDescriptor) throws -> [Strata.DefaultSnapshot] {
        configuration.log.record("fetch \(descriptor.entityName)")
        return try base.fetch(descriptor)
    }

    func fetchCount(_ descriptor: Strata.FetchDescriptor) throws -> Int {
        configuration.log.record("count \(descriptor.entityName)")
        return try base.fetchCount(descriptor)
    }

    func fetchIdentifiers(_ descriptor: Strata.FetchDescriptor) throws -> [PersistentIdentifier] {
        configuration.log.record("identifiers \(descriptor.entityName)")
        return try base.fetchIdentifiers(descriptor)
    }

    func save(_ request: SaveRequest<Strata.DefaultSnapshot>) throws -> SaveResult<Strata.DefaultSnapshot> {
        configuration.log.record("save")
        return try base.save(request)
    }
}

/// Opens a `CountingStore` over a memory store of the given name.
struct CountingStoreConfiguration: Strata.DataStoreConfiguration {
    typealias Store = CountingStore
    var base: MemoryStoreConfiguration
    let log: StoreCallLog

    init(name: String, log: StoreCallLog) {
        base = MemoryStoreConfiguration(name: name, schema: .empty)
        self.log = log
    }

    var name: String { base.name }
    var schema: Schema {
        get { base.schema }
        set { base.schema = newValue }
    }
    var isReadOnly: Bool {
        get { base.isReadOnly }
        set { base.isReadOnly = newValue }
    }
}

/// The backend the round-trip tests run on: memory, counted.
extension ModelBackend {
    static func counting(_ log: StoreCallLog) -> ModelBackend {
        ModelBackend(name: "counting-memory") { dir, types in
            try ModelContainer(for: types, configurations: CountingStoreConfiguration(name: dir.path, log: log))
        }
    }
}
