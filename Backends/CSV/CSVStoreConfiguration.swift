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

    /// Describes a CSV store.
    public init(folder: URL, schema: Schema) {
        self.folder = folder
        self.schema = schema
    }

    /// The folder path.
    public var name: String { folder.path }
}
