import Foundation
import StrataSQLSupport

/// The libpq connection as the shared SQL layer sees it (`SQLConnection`).
///
/// A save's transaction takes the store's write lock at once: `pg_advisory_xact_lock` on the
/// namespace's key (`PostgresCatalog.writeLockKey`), held until COMMIT or ROLLBACK. Saves to one
/// store are serialized across every process and machine, as SQLite's `BEGIN IMMEDIATE` serializes
/// them across processes; readers never wait (docs/formats/postgres.md, "Isolation").
extension PostgresConnection: SQLConnection {
    func prepare(_ sql: String) throws -> PostgresStatement { PostgresStatement(sql, connection: self) }

    func prepare(_ text: SQLText) throws -> PostgresStatement { PostgresStatement(text.sql, connection: self) }

    /// `BEGIN` and the lock in one round trip (two statements in one simple query). The key is the
    /// integer the server computed for the namespace (`PostgresCatalog.use`), not a stored value.
    func beginWrite() throws {
        do {
            try execute("BEGIN; SELECT pg_advisory_xact_lock(\(writeLockKey))")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func commit() throws { try execute("COMMIT") }

    func rollback() throws { try execute("ROLLBACK") }

    /// Under a savepoint: PostgreSQL aborts the whole transaction on a failed statement, so a
    /// statement that may fail with a unique violation runs between `SAVEPOINT` and `RELEASE`, and a
    /// failure rolls back to the savepoint only, then is rethrown; the save goes on.
    ///
    /// The body's one statement (the protocol's promise) carries the savepoint and its release
    /// with it in one round trip (`PostgresConnection.query`); a body that sends none costs none;
    /// a failure costs one more (`ROLLBACK TO` and `RELEASE` together).
    func attempt<T>(_ body: () throws -> T) throws -> T {
        savepoint = .armed
        defer { savepoint = .none }
        do {
            return try body()
        } catch {
            if case .sent = savepoint {
                try execute("ROLLBACK TO SAVEPOINT \(Self.savepointName); RELEASE SAVEPOINT \(Self.savepointName)")
            }
            throw error
        }
    }

    /// SQLSTATE 23505, unique_violation.
    func isUniqueFailure(_ error: any Error) -> Bool { (error as? PostgresError)?.sqlstate == "23505" }
}
