import Foundation
import StrataModel

// The JSON store of WWDC24's "Create a custom data store with SwiftData", written again from the
// session's description, as naive as the session's on purpose: the whole file is read for every
// fetch and written for every save, every fetch returns every record and asks the framework to
// filter and sort, and nothing checks unique constraints, applies delete rules or makes a save
// atomic. It compiles as SwiftData code (only `import StrataModel` differs) and runs through
// `ModelContainer`; `strata conformance --backend wwdc-json` shows which rules of Strata's store
// contract it breaks (docs/writing-a-backend.md). Not for production use.
//
// One correction to the code shown on screen: it declares `typealias StoreType = JSONStore`, but
// SwiftData's `DataStoreConfiguration` names its associated type `Store` (as the session says), so
// that line would not compile against SwiftData's documented protocol either.

/// Where WWDC24's JSON store keeps its file.
public final class JSONStoreConfiguration: DataStoreConfiguration {
    /// The store this configuration opens.
    public typealias Store = JSONStore

    /// The configuration's name.
    public var name: String
    /// The schema, set by the container.
    public var schema: Schema?
    /// The JSON file holding every record.
    public var fileURL: URL

    /// A configuration for the file at `fileURL`.
    public init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    /// Configurations are equal by name, as in the session.
    public static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool {
        lhs.name == rhs.name
    }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

/// WWDC24's JSON store: an array of `DefaultSnapshot`s in one file.
public final class JSONStore: DataStore {
    /// Its configuration type.
    public typealias Configuration = JSONStoreConfiguration
    /// It stores the framework's snapshots as they are.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration it was opened with.
    public var configuration: JSONStoreConfiguration
    /// The configuration's name.
    public var name: String
    /// The schema.
    public var schema: Schema
    /// The file's name: the store identifier of every record it makes.
    public var identifier: String

    /// Opens the store (reads nothing yet).
    public init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema!
        self.identifier = configuration.fileURL.lastPathComponent
    }

    /// Reads the file, applies the changes in memory (inserts get a UUID key) and writes the file.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var remappedIdentifiers = [PersistentIdentifier: PersistentIdentifier]()
        var serializedRecords = try read()

        for snapshot in request.inserted {
            let permanentIdentifier = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            let permanentSnapshot = snapshot.copy(persistentIdentifier: permanentIdentifier)
            serializedRecords[permanentIdentifier] = permanentSnapshot
            remappedIdentifiers[snapshot.persistentIdentifier] = permanentIdentifier
        }
        for snapshot in request.updated {
            serializedRecords[snapshot.persistentIdentifier] = snapshot
        }
        for snapshot in request.deleted {
            serializedRecords[snapshot.persistentIdentifier] = nil
        }
        try write(serializedRecords)
        return DataStoreSaveChangesResult<DefaultSnapshot>(for: identifier, remappedIdentifiers: remappedIdentifiers, snapshotsToReregister: [:])
    }

    /// Every record, whatever is asked: a predicate or a sort is left to the framework.
    public func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil {
            throw DataStoreError.preferInMemoryFilter
        } else if request.descriptor.sortBy.count > 0 {
            throw DataStoreError.preferInMemorySort
        }
        let records = try read()
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(records.values), relatedSnapshots: records)
    }

    /// The file's records by identifier; none when there is no file yet.
    func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        guard FileManager.default.fileExists(atPath: configuration.fileURL.path(percentEncoded: false)) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let records = try decoder.decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.fileURL))
        var result = [PersistentIdentifier: DefaultSnapshot]()
        for record in records { result[record.persistentIdentifier] = record }
        return result
    }

    /// Writes every record to the file, replacing it.
    func write(_ records: [PersistentIdentifier: DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Array(records.values)).write(to: configuration.fileURL)
    }
}
