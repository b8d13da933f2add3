/// SwiftData's description of a custom store: its name, its schema and whatever the store needs to
/// find its data (a file URL…). Each `DataStore` has its own.
///
/// Hand one to `ModelContainer(for:configurations:)`; the container fills in `schema` with the
/// schema of its model types before it opens the store. Not the core's `Strata.DataStoreConfiguration`,
/// which configures Strata's own backends (see `DataStore`).
public protocol DataStoreConfiguration: Hashable {
    /// The store type this configuration opens.
    associatedtype Store: DataStore where Store.Configuration == Self
    /// The configuration's name.
    var name: String { get }
    /// The schema of the data; `nil` until the container sets it.
    var schema: Schema? { get set }
    /// Checks the configuration before the store is opened. Has a default that accepts it.
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts the configuration.
    public func validate() throws {}
}
