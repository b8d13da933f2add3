import StrataSQLSupport

/// SQLite's connection as the shared SQL layer sees it (`SQLConnection`).
extension SQLiteConnection: SQLConnection {
    /// `BEGIN IMMEDIATE`: the write lock at once, so a save never waits for it half-way.
    func beginWrite() throws { try reuse(.beginImmediate).run() }

    /// `COMMIT`.
    func commit() throws { try reuse(.commit).run() }

    /// `ROLLBACK`.
    func rollback() throws { try prepare(.rollback).run() }

    /// SQLite's extended result codes 2067 (`SQLITE_CONSTRAINT_UNIQUE`) and 1555
    /// (`SQLITE_CONSTRAINT_PRIMARYKEY`, a join table's edge key).
    func isUniqueFailure(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.code == 2067 || error.code == 1555
    }

    /// A failed statement leaves SQLite's transaction open: `body` needs no savepoint.
    @inline(__always)
    func attempt<T>(_ body: () throws -> T) throws -> T { try body() }
}

/// SQLite's prepared statement as the shared SQL layer sees it (`SQLStatement`).
extension SQLiteStatement: SQLStatement {}
