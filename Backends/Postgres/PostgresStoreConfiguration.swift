import Foundation
import Strata

/// Describes a store in a PostgreSQL database: where to connect, the Strata schema, and the
/// PostgreSQL schema (namespace) that holds the store's tables, so several stores share one database.
///
/// ```swift
/// let config = PostgresStoreConfiguration(url: "postgresql://app@db.internal/shop", schema: schema)
/// let fromEnvironment = PostgresStoreConfiguration(schema: schema)   // PGHOST, PGUSER, PGDATABASE, …
/// ```
///
/// The password (in the URL, a `password=` parameter or `PGPASSWORD`) never appears in an error
/// message, a log line or `description`: every text from libpq or the server is redacted first.
public struct PostgresStoreConfiguration: DataStoreConfiguration, CustomStringConvertible {
    /// The store this configuration opens.
    public typealias Store = PostgresStore

    /// A standard libpq connection string (`postgresql://user:password@host:port/database?…` or
    /// `host=… dbname=…`); nil reads the `PG*` environment variables, as `psql` does.
    public var url: String?
    /// The schema of the data.
    public var schema: Schema
    /// The PostgreSQL schema (namespace) of the store's tables, created when missing.
    public var namespace: String
    /// Opens the store for reading only: nothing is created or changed, saves fail with `readOnlyStore`.
    /// A read-only store may name a hot standby.
    public var isReadOnly: Bool
    /// Whether saves record persisted history (`PostgresStore.fetchHistory`), in the table
    /// `strata_history` of the namespace.
    public var recordsHistory: Bool

    /// Describes a PostgreSQL store.
    public init(url: String? = nil, schema: Schema, namespace: String = "strata", isReadOnly: Bool = false, recordsHistory: Bool = false) {
        self.url = url
        self.schema = schema
        self.namespace = namespace
        self.isReadOnly = isReadOnly
        self.recordsHistory = recordsHistory
    }

    /// The connection (password as `***`) and the namespace: `postgresql://app:***@db/shop#strata`.
    public var name: String { "\(settings)#\(namespace)" }

    /// The same as `name`.
    public var description: String { name }

    /// The connection settings with the passwords to redact.
    var settings: PostgresConnectionSettings { PostgresConnectionSettings(url: url) }
}
