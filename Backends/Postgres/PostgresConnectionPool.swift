import Foundation
import Synchronization
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The reader connections of a store: each is pointed at the store's namespace and knows its string
/// columns. A connection goes back to the pool after use unless it failed with the connection lost
/// (a server restarted, a dropped link): the next use opens a new one, so a store reconnects by
/// itself once the server is back (docs/formats/postgres.md, "Faults").
final class PostgresConnectionPool: Sendable {
    let settings: PostgresConnectionSettings
    let namespace: String
    /// The redacted name errors give (`PostgresStoreConfiguration.name`).
    let store: String
    /// Idle connections, handed to one thread at a time.
    private let idle = Mutex<[Connection]>([])
    /// The string and URL columns of the store's tables, by table and column name (found once per
    /// new connection as `textColumns`, the OIDs being the server's).
    private let textColumns: [String: Set<String>]

    /// A connection moves between threads only through the pool's lock.
    private struct Connection: @unchecked Sendable { let value: PostgresConnection }

    /// How many idle connections are kept.
    static let kept = 8

    init(settings: PostgresConnectionSettings, namespace: String, store: String, mapping: SQLMapping) {
        self.settings = settings
        self.namespace = namespace
        self.store = store
        var text: [String: Set<String>] = [:]
        for table in mapping.tables {
            for (i, a) in table.entity.attributes.enumerated() where a.type == .string || a.type == .url {
                text[table.name, default: []].insert(table.attributeColumns[i])
            }
        }
        textColumns = text
    }

    /// A new connection pointed at the store (no pool involved): `storeUnavailable` when the server
    /// cannot be reached.
    func connect() throws -> PostgresConnection {
        let connection = try PostgresConnection(settings: settings)
        do {
            try PostgresCatalog.use(namespace, on: connection)
            try learnTextColumns(connection)
        } catch let error as PostgresError {
            throw error.strataError(store: store)
        }
        return connection
    }

    /// Sets `connection.textColumns` from the catalog (after the store's tables exist).
    func learnTextColumns(_ connection: PostgresConnection) throws {
        guard !textColumns.isEmpty else { return }
        let rows = try connection.query(
            "SELECT c.oid::int8, a.attnum::int8, c.relname::text, a.attname::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = convert_from($1, 'UTF8') AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND a.atttypid = 'bytea'::regtype",
            [.text(namespace)])
        var found: Set<Int64> = []
        for row in 0..<rows.count {
            guard case .text(let table) = rows.value(row, 2), case .text(let column) = rows.value(row, 3),
                  textColumns[table]?.contains(column) == true,
                  let oid = rows.integer(row, 0), let number = rows.integer(row, 1) else { continue }
            found.insert(PostgresConnection.columnKey(table: UInt32(truncatingIfNeeded: oid), column: Int32(number)))
        }
        connection.textColumns = found
    }

    /// Runs `body` on an idle or new connection; `consistent` wraps it in one read-only REPEATABLE
    /// READ transaction, so several statements (a query and its to-many lists) see one committed state.
    /// Libpq and server failures become `StrataError`s. When an idle connection turns out dropped
    /// (the server restarted since it was last used), the other idle ones are let go too and `body`
    /// runs again on a new connection: a read changes nothing, so running it again is safe.
    func withConnection<T>(consistent: Bool, _ body: (PostgresConnection) throws -> T) throws -> T {
        if let pooled = idle.withLock({ $0.popLast()?.value }) {
            do {
                return try run(on: pooled, consistent: consistent, body)
            } catch let error as PostgresError where error.isConnectionLost {
                idle.withLock { $0.removeAll() }
            } catch let error as PostgresError {
                throw error.strataError(store: store)
            }
        }
        do {
            return try run(on: try connect(), consistent: consistent, body)
        } catch let error as PostgresError {
            throw error.strataError(store: store)
        }
    }

    /// `body` on `connection`, which goes back to the pool afterwards unless it was lost.
    private func run<T>(on connection: PostgresConnection, consistent: Bool, _ body: (PostgresConnection) throws -> T) throws -> T {
        var reusable = true
        defer {
            if reusable, connection.isAlive { idle.withLock { if $0.count < Self.kept { $0.append(Connection(value: connection)) } } }
        }
        do {
            guard consistent else { return try body(connection) }
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch let error as PostgresError {
            if error.isConnectionLost { reusable = false }
            throw error
        }
    }
}
