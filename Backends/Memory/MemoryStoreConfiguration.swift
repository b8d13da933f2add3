import Strata

/// Opens a `MemoryStore`: a name and a schema.
///
/// Stores opened with the same name in one process share their committed data, so closing and
/// reopening works as it does on disk (the suite's reopen cases run here too). Use a fresh name for
/// an empty store.
public struct MemoryStoreConfiguration: DataStoreConfiguration {
    /// The store type this opens.
    public typealias Store = MemoryStore
    /// The registry key of the store in this process.
    public var name: String
    /// The schema of the data.
    public var schema: Schema

    /// Describes an in-memory store.
    public init(name: String, schema: Schema) {
        self.name = name
        self.schema = schema
    }
}
