import Foundation
import StrataModel
import Synchronization

/// A custom store written as for SwiftData with history of its own: a `RecordingStore` that also
/// journals each save as a transaction of its own type and answers `HistoryProviding`.
final class JournalingStore: DataStore, HistoryProviding {
    typealias Configuration = JournalingStoreConfiguration
    typealias Snapshot = DefaultSnapshot
    typealias HistoryType = JournalTransaction

    /// Every store's journal, by configuration name.
    static let journals = Mutex<[String: [JournalTransaction]]>([:])

    static var historyType: JournalTransaction.Type { JournalTransaction.self }
    let configuration: JournalingStoreConfiguration
    private let records: RecordingStore
    var identifier: String { "journaling-" + configuration.name }
    var schema: Schema { records.schema }

    init(_ configuration: JournalingStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        records = try RecordingStore(
            RecordingStoreConfiguration(name: configuration.name, schema: configuration.schema, refusesPredicates: true, refusesSorts: true),
            migrationPlan: migrationPlan)
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        try records.fetch(request)
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        let result = try records.save(request)
        Self.journals.withLock { journals in
            var journal = journals[configuration.name] ?? []
            let number = (journal.last?.transactionIdentifier ?? 0) + 1
            journal.append(JournalTransaction(
                author: request.editingState.author, storeIdentifier: identifier, timestamp: Date(),
                token: JournalToken(value: number), transactionIdentifier: number,
                insertedCount: request.inserted.count, deletedCount: request.deleted.count))
            journals[configuration.name] = journal
        }
        return result
    }

    func fetchHistory(_ descriptor: HistoryDescriptor<JournalTransaction>) throws -> [JournalTransaction] {
        var selected = Self.journals.withLock { $0[configuration.name] ?? [] }
        if let predicate = descriptor.predicate { selected = try selected.filter { try predicate.evaluate($0) } }
        return Array(selected.prefix(descriptor.fetchLimit ?? Int.max))
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<JournalTransaction>) throws {
        let doomed = Set(try fetchHistory(descriptor).map(\.transactionIdentifier))
        Self.journals.withLock { $0[configuration.name]?.removeAll { doomed.contains($0.transactionIdentifier) } }
    }
}

/// The journaling store's configuration.
struct JournalingStoreConfiguration: DataStoreConfiguration {
    typealias Store = JournalingStore
    var name: String
    var schema: Schema?
    static func unique() -> JournalingStoreConfiguration { JournalingStoreConfiguration(name: UUID().uuidString, schema: nil) }
}

/// The journaling store's token: its transaction number.
struct JournalToken: Comparable, Hashable, Identifiable, Sendable {
    var value: Int
    var id: Int { value }
    static func < (a: JournalToken, b: JournalToken) -> Bool { a.value < b.value }
}

/// One journaled save: who saved, and how many records it inserted and deleted.
struct JournalTransaction: HistoryTransaction {
    var author: String?
    var changes: [HistoryChange] { [] }
    var storeIdentifier: String
    var timestamp: Date
    var token: JournalToken
    var transactionIdentifier: Int
    var insertedCount: Int
    var deletedCount: Int
    var id: Int { transactionIdentifier }
}
