import CLibPQ
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

    /// Starts a save's transaction. With `openedFingerprint` set (the store's writer), nothing is
    /// sent yet: `BEGIN`, the write lock and a guard that fails unless the store still records
    /// that fingerprint go in the pipeline of the save's first statement (`beginPending`,
    /// `PostgresConnection+Queue.swift`), so the save's first round trip also does its first work.
    /// The save's schema check (`SQLSaveTransaction.requireOpenedSchema`) takes the opened
    /// fingerprint (`fingerprintAtBegin`): the server runs no statement of the save after a
    /// failed guard (the pipeline aborts), and the store then reports `schemaMismatch`
    /// (`schemaChanged`).
    ///
    /// Without it, one round trip: `BEGIN`, the write lock, then the store's recorded schema
    /// fingerprint, kept in `fingerprintAtBegin`. Either way the three statements run in that
    /// order; under READ COMMITTED each takes its own snapshot, so the fingerprint is read after
    /// the lock was granted and sees a migration that committed while this save waited for it. The
    /// lock key is the only text spliced in: an integer the store computed
    /// (`PostgresCatalog.writeLockKey`).
    func beginWrite() throws {
        fingerprintAtBegin = nil
        discardQueue()
        schemaChanged = false
        lostBeforeWriting = false
        if let opened = openedFingerprint {
            beginPending = true
            fingerprintAtBegin = opened
            return
        }
        do {
            roundTrips += 1
            let rows = try PostgresRows(checking: PQexec(handle, "BEGIN; SELECT pg_advisory_xact_lock(\(writeLockKey)); \(SQLText.recordedFingerprint.sql)"), connection: self)
            guard rows.count > 0, case .text(let fingerprint) = rows.value(0, 0) else { fingerprintAtBegin = ""; return }
            fingerprintAtBegin = fingerprint
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The pending `BEGIN`, lock and guard (`beginWrite`), sent now on their own.
    func sendPendingBegin() throws {
        if beginPending { try sendQueue() }
    }

    func commit() throws { try execute("COMMIT") }

    func rollback() throws {
        discardQueue()
        // A transaction never sent has nothing to roll back.
        if beginPending {
            beginPending = false
            return
        }
        try execute("ROLLBACK")
    }

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
