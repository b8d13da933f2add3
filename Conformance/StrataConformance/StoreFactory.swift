import Foundation
import Strata
import Synchronization

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
    /// Removes what a store left in `directory` after a case, or elsewhere for it (a server's
    /// namespace, an in-memory store's name); the default deletes the directory. The suite deletes
    /// the directory itself afterwards, so a `destroy` for a store kept elsewhere need not.
    public var destroy: @Sendable (_ directory: URL) -> Void

    /// Which factory this is, for the suite's record of the cases run on it in this process
    /// (`ConformanceSuite.expect` and `expectEveryCaseRan` share a factory's results by it, so keep
    /// a factory in one `let` and hand the same one to both).
    let serial: Int

    /// A factory from a configuration maker and an optional clean-up.
    public init(
        configuration: @escaping @Sendable (_ directory: URL, _ schema: Schema) -> Store.Configuration,
        destroy: @escaping @Sendable (_ directory: URL) -> Void = { try? FileManager.default.removeItem(at: $0) }
    ) {
        self.configuration = configuration
        self.destroy = destroy
        self.serial = FactorySerials.next()
    }

    /// The key of this factory's cases in the suite's ledger: the store type and the factory.
    var ledgerKey: String { "\(Store.self)#\(serial)" }
}

/// Numbers the factories made in this process.
enum FactorySerials {
    private static let counter = Atomic<Int>(0)
    static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
