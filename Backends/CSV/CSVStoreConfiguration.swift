import Foundation
import Strata

/// Opens a `CSVStore`: a folder and a schema.
///
/// ```swift
/// let store = try CSVStore(CSVStoreConfiguration(folder: dir.appendingPathComponent("data"), schema: schema))
/// ```
public struct CSVStoreConfiguration: DataStoreConfiguration {
    /// The store type this opens.
    public typealias Store = CSVStore
    /// The folder holding the CSV files and the manifest (created if missing).
    public var folder: URL
    /// The schema of the data.
    public var schema: Schema
    /// How long opening waits for another process that holds the store; `nil` fails at once with
    /// `storeLocked`.
    public var lockWait: Duration?

    /// Describes a CSV store.
    public init(folder: URL, schema: Schema, lockWait: Duration? = nil) {
        self.folder = folder
        self.schema = schema
        self.lockWait = lockWait
    }

    /// The folder path.
    public var name: String { folder.path }
}
