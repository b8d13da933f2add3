import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Opens a `SQLiteStore`: a database file and a schema.
///
/// ```swift
/// let store = try SQLiteStore(SQLiteStoreConfiguration(url: dir.appendingPathComponent("app.sqlite"), schema: schema))
/// ```
public struct SQLiteStoreConfiguration: DataStoreConfiguration {
    /// The store type this opens.
    public typealias Store = SQLiteStore
    /// The database file (created with its tables if missing or empty).
    public var url: URL
    /// The schema of the data.
    public var schema: Schema
    /// How long a save waits for another writer (another process) before failing with `storeLocked`.
    public var busyTimeout: Duration
    /// Opens the database with `SQLITE_OPEN_READONLY`: nothing is created or changed (a missing or
    /// empty database is an error), saves fail with `readOnlyStore`, and other connections may write.
    public var isReadOnly: Bool

    /// Describes a SQLite store.
    public init(url: URL, schema: Schema, busyTimeout: Duration = .seconds(5), isReadOnly: Bool = false) {
        self.url = url
        self.schema = schema
        self.busyTimeout = busyTimeout
        self.isReadOnly = isReadOnly
    }

    /// The file path.
    public var name: String { url.path }
}
