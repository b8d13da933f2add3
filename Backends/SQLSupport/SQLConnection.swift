/// What the shared SQL layer needs of a database connection: prepared statements, and the write
/// transaction around a save. A backend's connection conforms (`SQLiteConnection`); the layer's code
/// is generic over it (`Connection: SQLConnection`), never `any SQLConnection`.
///
/// One connection is used by one thread at a time (the store's writer lock or reader pool decides
/// which); nothing here is required to be thread-safe.
@usableFromInline package protocol SQLConnection: AnyObject {
    /// The connection's prepared statement type.
    associatedtype Statement: SQLStatement

    /// A prepared statement for `sql`, reset with its parameters cleared. A connection should cache
    /// statements by text: the layer prepares the same texts over and over.
    func prepare(_ sql: String) throws -> Statement

    /// The statement of a fixed text (the mapping's `texts`), which a connection may cache by
    /// `text.slot`, an array index, instead of hashing the text. Reset, parameters cleared.
    func prepare(_ text: SQLText) throws -> Statement

    /// Starts the write transaction of a save: the store's write lock is taken at once, so a save
    /// never fails half-way for want of it (SQLite: `BEGIN IMMEDIATE`).
    func beginWrite() throws
    /// Commits the open transaction.
    func commit() throws
    /// Rolls the open transaction back; the store is as before it.
    func rollback() throws

    /// Whether `error`, thrown by a statement of this connection, is a unique constraint failure
    /// (SQLite: extended codes 2067 `SQLITE_CONSTRAINT_UNIQUE` and 1555 `…_PRIMARYKEY`;
    /// PostgreSQL: SQLSTATE 23505). The save transaction holds a value back on such a failure
    /// instead of failing the save: only a collision left at the end of the save is a violation.
    func isUniqueFailure(_ error: any Error) -> Bool

    /// Runs `body`, one statement that may fail with a unique failure, so that the open transaction
    /// survives the failure and the save can go on (it holds the value back and sets it again at the
    /// end). SQLite: `body` as it is (a failed statement leaves the transaction open). PostgreSQL,
    /// which aborts the whole transaction on any failed statement: `SAVEPOINT` before, `RELEASE`
    /// after, `ROLLBACK TO` on failure, then rethrow.
    func attempt<T>(_ body: () throws -> T) throws -> T

    /// Whether a save queues its INSERTs (`queueInsert`) and sends them many at a time
    /// (`sendQueuedInserts`) instead of running each at once under `attempt`: a connection to a
    /// server, where each statement run alone is a round trip (PostgreSQL: pipeline mode). SQLite,
    /// where a statement costs no round trip: false (the default).
    var queuesInserts: Bool { get }

    /// Queues `statement`, an INSERT of one row with every parameter bound, behind the INSERTs
    /// queued before it; the statement may be bound again at once. The row runs as under `attempt`:
    /// refused for a unique value, it writes nothing and the transaction goes on
    /// (`sendQueuedInserts` names it). Any other statement run on the connection sends the queue
    /// first, so every read sees the rows queued before it. Called only when `queuesInserts`.
    func queueInsert(_ statement: Statement) throws

    /// Sends the queued INSERTs and returns the positions, in the order they were queued (from 0,
    /// counted since the last call), of the rows refused for a unique value. Any other failure is
    /// thrown, and the transaction must be rolled back. Called only when `queuesInserts`.
    func sendQueuedInserts() throws -> [Int]

    /// Runs `statement`, bound with every parameter, a write whose answer the save does not wait
    /// for: an UPDATE of columns no unique constraint covers, a join-table row's INSERT that
    /// ignores a duplicate, a DELETE. It cannot fail for a unique value, and any failure fails the
    /// save. A connection to a server queues it behind the INSERTs and writes queued before it and
    /// sends it with the next statement, or with COMMIT (PostgreSQL: in the same pipeline, no
    /// round trip of its own); every read sees it. The statement may be bound again at once.
    /// Default: run at once (SQLite).
    func queueWrite(_ statement: Statement) throws
}

extension SQLConnection {
    /// Runs each INSERT at once (`SQLConnection.queuesInserts`).
    @inlinable package var queuesInserts: Bool { false }

    /// Never called: `queuesInserts` is false.
    @inlinable package func queueInsert(_ statement: Statement) throws {
        preconditionFailure("queueInsert on a connection that does not queue its inserts")
    }

    /// Runs the write at once, its bindings kept.
    @inlinable package func queueWrite(_ statement: Statement) throws {
        defer { statement.resetKeepingBindings() }
        while try statement.step() {}
    }

    /// Never called: `queuesInserts` is false.
    @inlinable package func sendQueuedInserts() throws -> [Int] {
        preconditionFailure("sendQueuedInserts on a connection that does not queue its inserts")
    }
}

/// A prepared statement of a `SQLConnection`: bind parameters, step through rows, read columns
/// (counted from 0; parameters from 1).
@usableFromInline package protocol SQLStatement: AnyObject {
    /// Binds `values` to parameters 1…n.
    func bind(_ values: [SQLValue]) throws
    /// Binds `value` to parameter `index` (from 1), the others kept: a save's row statements bind
    /// each parameter again before every run, without building an array of them.
    func bind(_ value: SQLValue, at index: Int32) throws
    /// Makes the statement ready to run again, its bindings kept (every one is bound again before
    /// the next run).
    func resetKeepingBindings()
    /// Advances to the next row: `false` when there is none (the statement is done).
    func step() throws -> Bool
    /// Binds `values` and runs the statement to its end (an INSERT, UPDATE or DELETE).
    func run(_ values: [SQLValue]) throws
    /// Binds `values`, reads every row with `read`, and resets the statement.
    func rows<T>(_ values: [SQLValue], _ read: (Self) throws -> T) throws -> [T]
    /// The number of columns of a row.
    var columnCount: Int32 { get }
    /// The value of `column` in the current row.
    func value(_ column: Int32) -> SQLValue
    /// The integer in `column` of the current row (0 for NULL).
    func int64(_ column: Int32) -> Int64
    /// Whether `column` of the current row is NULL.
    func isNull(_ column: Int32) -> Bool
}
