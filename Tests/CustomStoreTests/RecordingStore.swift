import Foundation
import Synchronization
import StrataModel

/// A custom store that keeps its records in a process-wide table by name and writes down the shape
/// of every fetch it is asked, so a test can see what the framework asked and when it retried.
/// It refuses predicates and sorts when configured to (as most custom stores do), and runs them
/// otherwise by returning everything (so the framework's own pass is what filters).
final class RecordingStore: DataStore {
    typealias Configuration = RecordingStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    /// One fetch as the store saw it.
    struct Seen: Hashable, Sendable {
        var hasPredicate: Bool
        var sortCount: Int
        var answered: Bool
    }

    static let tables = Mutex<[String: [PersistentIdentifier: DefaultSnapshot]]>([:])
    static let log = Mutex<[String: [Seen]]>([:])

    let configuration: RecordingStoreConfiguration
    let schema: Schema
    var identifier: String { "recording-" + configuration.name }

    init(_ configuration: RecordingStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema ?? .empty
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        let refuse = (request.descriptor.predicate != nil && configuration.refusesPredicates) || (!request.descriptor.sortBy.isEmpty && configuration.refusesSorts)
        Self.log.withLock { $0[configuration.name, default: []].append(Seen(hasPredicate: request.descriptor.predicate != nil, sortCount: request.descriptor.sortBy.count, answered: !refuse)) }
        if request.descriptor.predicate != nil, configuration.refusesPredicates { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty, configuration.refusesSorts { throw DataStoreError.preferInMemorySort }
        let all = Self.tables.withLock { $0[configuration.name] ?? [:] }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(all.values), relatedSnapshots: all)
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
        }
        Self.tables.withLock { tables in
            var table = tables[configuration.name] ?? [:]
            for snapshot in request.inserted {
                let id = remapped[snapshot.persistentIdentifier]!
                table[id] = snapshot.copy(persistentIdentifier: id, remappedIdentifiers: remapped)
            }
            for snapshot in request.updated { table[snapshot.persistentIdentifier] = snapshot.copy(persistentIdentifier: snapshot.persistentIdentifier, remappedIdentifiers: remapped) }
            for snapshot in request.deleted { table[snapshot.persistentIdentifier] = nil }
            tables[configuration.name] = table
        }
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }
}

struct RecordingStoreConfiguration: DataStoreConfiguration {
    typealias Store = RecordingStore
    var name: String
    var schema: Schema?
    var refusesPredicates = true
    var refusesSorts = true

    static func unique(refusesPredicates: Bool = true, refusesSorts: Bool = true) -> RecordingStoreConfiguration {
        RecordingStoreConfiguration(name: UUID().uuidString, schema: nil, refusesPredicates: refusesPredicates, refusesSorts: refusesSorts)
    }

    var seen: [RecordingStore.Seen] { RecordingStore.log.withLock { $0[name] ?? [] } }
}
