import Foundation
@_spi(StrataEngine) import Strata

/// Opens a `CSVStore`: a folder and a schema.
///
/// ```swift
/// let store = try CSVStore(CSVStoreConfiguration(folder: dir.appendingPathComponent("data"), schema: schema))
/// ```
public struct CSVStoreConfiguration: DataStoreConfiguration {
    /// The store type this opens.
    public typealias Store = CSVStore
    /// The folder holding the CSV files and the manifest (a writer creates it if missing).
    public var folder: URL
    /// The schema of the data.
    public var schema: Schema
    /// How long opening waits for another writer that holds the store; `nil` fails at once with
    /// `storeLocked`. Read-only stores never wait.
    public var lockWait: Duration?
    /// Reads only: never creates or changes a file, takes no lock, and sees a writer's saves.
    public var isReadOnly: Bool
    /// Whether saves record history, in `history.journal` in the folder (a store opened without it
    /// still reads and deletes what others recorded).
    public var recordsHistory: Bool

    /// Describes a CSV store.
    public init(folder: URL, schema: Schema, lockWait: Duration? = nil, isReadOnly: Bool = false, recordsHistory: Bool = false) {
        self.folder = folder
        self.schema = schema
        self.lockWait = lockWait
        self.isReadOnly = isReadOnly
        self.recordsHistory = recordsHistory
    }

    /// The folder path.
    public var name: String { folder.path }
}
