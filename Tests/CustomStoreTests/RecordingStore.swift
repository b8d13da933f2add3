import Foundation
import Synchronization
import StrataModel

/// A custom store that keeps its records in a process-wide table by name and writes down the shape
/// of every fetch it is asked, so a test can see what the framework asked and when it retried.
/// It refuses predicates and sorts when configured to (as most custom stores do). Otherwise it
/// runs them itself on `Trip`s, evaluating the request's own `Predicate<Trip>` and
/// `SortDescriptor<Trip>`s and window — or, configured to `ignoreWhatItAnswers`, claims to and
/// returns every record (a store that filters wrongly).
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
    /// Keys in insertion order, as the store contract asks.
    static let nextKey = Mutex<Int64>(0)

    let configuration: RecordingStoreConfiguration
    let schema: Schema
    var identifier: String { "recording-" + configuration.name }

    /// The migration plan each store was opened with, by configuration name.
    static let plans = Mutex<[String: String]>([:])

    init(_ configuration: RecordingStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema ?? .empty
        Self.plans.withLock { $0[configuration.name] = migrationPlan.map { "\($0): \($0.schemas.map { "\($0.versionIdentifier)" }.joined(separator: ", "))" } ?? "none" }
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        let refuse = (request.descriptor.predicate != nil && configuration.refusesPredicates) || (!request.descriptor.sortBy.isEmpty && configuration.refusesSorts)
        Self.log.withLock { $0[configuration.name, default: []].append(Seen(hasPredicate: request.descriptor.predicate != nil, sortCount: request.descriptor.sortBy.count, answered: !refuse)) }
        if request.descriptor.predicate != nil, configuration.refusesPredicates { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty, configuration.refusesSorts { throw DataStoreError.preferInMemorySort }
        let all = Self.tables.withLock { $0[configuration.name] ?? [:] }
        let asked = request.descriptor.predicate != nil || !request.descriptor.sortBy.isEmpty || request.descriptor.fetchLimit != nil
        guard asked, !configuration.ignoreWhatItAnswers, let trips = request.descriptor as? FetchDescriptor<Trip> else {
            let inKeyOrder = all.values.sorted { $0.persistentIdentifier.primaryKey < $1.persistentIdentifier.primaryKey }
            return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: inKeyOrder, relatedSnapshots: all)
        }
        let answered = try run(trips, on: all.values.filter { $0.persistentIdentifier.entityName == "Trip" })
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: answered, relatedSnapshots: all)
    }

    /// The `Trip` snapshots `descriptor` selects, by evaluating its predicate and sort descriptors
    /// on `Trip` objects made from the snapshots, then its window.
    private func run(_ descriptor: FetchDescriptor<Trip>, on snapshots: [DefaultSnapshot]) throws -> [DefaultSnapshot] {
        let entity = try schema.requireEntity("Trip")
        func text(_ row: Strata.DefaultSnapshot, _ name: String) -> String {
            guard let i = entity.attributes.firstIndex(where: { $0.name == name }), case .string(let value) = row.attributes[i] else { return "" }
            return value
        }
        var pairs = snapshots.map { snapshot -> (trip: Trip, snapshot: DefaultSnapshot) in
            let row = snapshot.coreSnapshot(entity)
            return (Trip(name: text(row, "name"), destination: text(row, "destination")), snapshot)
        }
        if let predicate = descriptor.predicate { pairs = try pairs.filter { try predicate.evaluate($0.trip) } }
        pairs.sort { a, b in
            for sort in descriptor.sortBy {
                let order = sort.compare(a.trip, b.trip)
                if order != .orderedSame { return order == .orderedAscending }
            }
            return false
        }
        return Array(pairs.map(\.snapshot).dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? Int.max))
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            let key = Self.nextKey.withLock { key in
                key += 1
                return key
            }
            remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: key)
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
    var ignoreWhatItAnswers = false

    static func unique(refusesPredicates: Bool = true, refusesSorts: Bool = true, ignoreWhatItAnswers: Bool = false) -> RecordingStoreConfiguration {
        RecordingStoreConfiguration(name: UUID().uuidString, schema: nil, refusesPredicates: refusesPredicates, refusesSorts: refusesSorts, ignoreWhatItAnswers: ignoreWhatItAnswers)
    }

    var seen: [RecordingStore.Seen] { RecordingStore.log.withLock { $0[name] ?? [] } }
}
