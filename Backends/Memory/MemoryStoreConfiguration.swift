@_spi(StrataEngine) import Strata

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
    /// Opens an existing store of this name for reading only (saves fail with `readOnlyStore`);
    /// a name no store in this process has is an error rather than a new empty store.
    public var isReadOnly: Bool
    /// Whether this store's saves record history (kept with the data, shared by every store of
    /// the name; a store opened without it still reads and deletes what others recorded).
    public var recordsHistory: Bool

    /// Describes an in-memory store.
    public init(name: String, schema: Schema, isReadOnly: Bool = false, recordsHistory: Bool = false) {
        self.name = name
        self.schema = schema
        self.isReadOnly = isReadOnly
        self.recordsHistory = recordsHistory
    }
}
