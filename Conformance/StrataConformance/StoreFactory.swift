import Foundation
import Strata

/// How the suite opens a backend: a configuration for a location and a schema.
///
/// The suite gives each case a fresh, empty directory and calls `configuration` with it (again for
/// every reopen, with the same directory). A file-based backend puts its files there; the memory
/// backend uses the path as its name.
///
/// ```swift
/// let factory = StoreFactory<MyStore> { directory, schema in
///     MyStoreConfiguration(url: directory.appendingPathComponent("store.db"), schema: schema)
/// }
/// ```
public struct StoreFactory<Store: DataStore>: Sendable {
    /// A configuration that opens the store kept in `directory`.
    public var configuration: @Sendable (_ directory: URL, _ schema: Schema) -> Store.Configuration
    /// Removes what a store left in `directory` after a case; the default deletes the directory.
    public var destroy: @Sendable (_ directory: URL) -> Void

    /// A factory from a configuration maker and an optional clean-up.
    public init(
        configuration: @escaping @Sendable (_ directory: URL, _ schema: Schema) -> Store.Configuration,
        destroy: @escaping @Sendable (_ directory: URL) -> Void = { try? FileManager.default.removeItem(at: $0) }
    ) {
        self.configuration = configuration
        self.destroy = destroy
    }
}
