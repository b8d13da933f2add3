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
    /// What a returned save survives. `.powerLoss` (the default) runs the WAL with
    /// `PRAGMA synchronous = FULL`: each commit syncs the WAL before `save` returns.
    /// `.processCrash` runs it with `synchronous = NORMAL`: the WAL is synced only at checkpoints, so
    /// a commit costs no `fsync` but power loss or an OS crash may roll back the last saves (the
    /// database stays intact).
    public var durability: SaveDurability
    /// Opens the database with `SQLITE_OPEN_READONLY`: nothing is created or changed (a missing or
    /// empty database is an error), saves fail with `readOnlyStore`, and other connections may write.
    public var isReadOnly: Bool
    /// Whether saves record history (`SQLiteStore.fetchHistory`) in table `strata_history`, in the
    /// save's transaction. Off by default: a store that does not record pays nothing.
    public var recordsHistory = false

    /// Describes a SQLite store.
    public init(url: URL, schema: Schema, busyTimeout: Duration = .seconds(5), durability: SaveDurability = .powerLoss, isReadOnly: Bool = false) {
        self.url = url
        self.schema = schema
        self.busyTimeout = busyTimeout
        self.durability = durability
        self.isReadOnly = isReadOnly
    }

    /// The file path.
    public var name: String { url.path }
}
