import CLibPQ
import Foundation
import StrataSQLSupport
import Strata

/// One libpq connection with its prepared statements.
///
/// Every statement with values is prepared once per connection (`PQprepare`) and run with its
/// parameters bound in binary (`PQexecPrepared`); no value is ever spliced into SQL text. A write of
/// many rows goes through libpq's pipeline mode (`run(_:rows:)`): the rows are sent without waiting
/// for each answer, in chunks of `pipelineChunk` with a sync point after each, so neither side's
/// socket buffer fills while the other waits. Not thread-safe: the store hands a connection to one
/// thread at a time.
final class PostgresConnection {
    let handle: OpaquePointer
    let settings: PostgresConnectionSettings
    /// The advisory lock key a save's transaction takes (the namespace's, set by `PostgresCatalog.use`).
    var writeLockKey: Int64 = 0 {
        didSet { writeLockSQL = "SELECT pg_advisory_xact_lock(\(writeLockKey))" }
    }
    /// The statement that takes the write lock, built once (not per save).
    private(set) var writeLockSQL = "SELECT pg_advisory_xact_lock(0)"
    /// The store's recorded schema fingerprint as the current write transaction read it right after
    /// taking the write lock (`beginWrite`); nil outside a save.
    var fingerprintAtBegin: String?
    /// The store's string and URL columns, by `columnKey`: their `bytea` values read back as
    /// `.text` (`PostgresRows.value`), as the shared layer binds them. Set when the store opens.
    var textColumns: Set<Int64> = []
    /// Statement names by SQL text and parameter types.
    private var prepared: [PreparedKey: String] = [:]
    /// The statement `statement(_:types:)` found last: a save repeats one statement, whose text
    /// (hundreds of bytes) is then compared, usually by identity, instead of hashed. Its types
    /// need only agree where a value is not NULL.
    private var lastPrepared: (key: PreparedKey, name: String)?
    /// Where `attempt`'s savepoint is (`PostgresConnection+SQLConnection.swift`): asked for, the
    /// next `query` sends it, the statement and its release in one round trip.
    var savepoint = Savepoint.none

    /// The state of `attempt`'s savepoint.
    enum Savepoint {
        /// No attempt is running.
        case none
        /// An attempt is running and has sent no statement yet.
        case armed
        /// The attempt's statement went out with the savepoint (and its release, which a failed
        /// statement leaves undone: the savepoint is then still there to roll back to).
        case sent
    }

    /// The INSERTs and writes a save queued (`PostgresConnection+Queue.swift`), not sent yet.
    var queued: [Queued] = []
    /// Their parameters, encoded.
    var queuedParameters = QueuedParameters()
    /// How many queued INSERTs were sent since the last `sendQueuedInserts`, and the positions
    /// among them of those the server refused for a unique value.
    var insertsSinceLastSend = 0
    var refusedInserts: [Int] = []

    /// The fingerprint of the schema the store was opened at, on the writer's connection: its
    /// saves begin in the pipeline of their first statement (`beginWrite`).
    var openedFingerprint: String?
    /// Whether `beginWrite`'s BEGIN, lock and guard wait to go with the next statement.
    var beginPending = false
    /// Whether the pending begin's guard found the store at another schema (a migration by
    /// another process): the save is refused with `schemaMismatch`.
    var schemaChanged = false
    /// Whether the connection was lost in the pipeline that carried the pending begin, without a
    /// COMMIT: nothing of the save reached the server's tables, so it may run again on a new
    /// connection.
    var lostBeforeWriting = false

    /// How many times this connection waited for the server's answer (a statement, a prepare, a
    /// pipeline up to its sync point): what a save costs in round trips, which the tests count.
    var roundTrips = 0

    /// The savepoint `attempt` takes; the name is fixed, the savepoints never nest.
    static let savepointName = "strata_attempt"

    /// How many rows a pipeline sends before it waits for their results.
    static let pipelineChunk = 512

    private struct PreparedKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Connects; a server that cannot be reached or refuses the credentials is `storeUnavailable`.
    init(settings: PostgresConnectionSettings) throws {
        self.settings = settings
        guard let conn = PQconnectdb(settings.conninfo) else {
            throw StrataError(.storeUnavailable, "libpq could not allocate a connection.")
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = settings.redacting(String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines))
            PQfinish(conn)
            let error = PostgresError(sqlstate: PostgresError.clientConnectionFailure, message: message)
            throw StrataError(.storeUnavailable, "Cannot connect to PostgreSQL at \(settings) (\(message)).").with(native: error.native)
        }
        handle = conn
        // libpq prints notices (e.g. "schema already exists, skipping") to stderr by default.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// The key of a table's column in `textColumns`: the table's OID and the column's number.
    static func columnKey(table: UInt32, column: Int32) -> Int64 { Int64(table) << 16 | Int64(column & 0xFFFF) }

    /// Whether the connection is still usable (false once the server went away).
    var isAlive: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the connection is still usable once what the server sent unasked is read, without
    /// waiting (`PQconsumeInput`): a server that closed it (a restart, a terminated backend) is
    /// seen before anything more is sent.
    var isOpenAfterReading: Bool { isAlive && PQconsumeInput(handle) == 1 && isAlive }

    /// Runs SQL without parameters and results (several statements allowed): DDL, BEGIN, COMMIT.
    /// Under `attempt` the savepoint and its release go in the same round trip (one simple query:
    /// a failing statement skips the release and leaves the savepoint to roll back to).
    func execute(_ sql: String) throws {
        if !queued.isEmpty || beginPending { try sendQueue() }
        var sql = sql
        if case .armed = savepoint {
            savepoint = .sent
            sql = "SAVEPOINT \(Self.savepointName); \(sql); RELEASE SAVEPOINT \(Self.savepointName)"
        }
        roundTrips += 1
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw PostgresError(result: result, connection: handle, settings: settings) }
    }

    /// Runs a prepared statement with `parameters` bound and returns its rows (none for a write).
    /// Statements queued before it go in the same pipeline, ahead of it (one round trip).
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue] = []) throws -> PostgresRows {
        let encoded = PostgresParameters(parameters)
        let name = try statement(sql, types: encoded.types)
        if !queued.isEmpty || beginPending {
            guard case .none = savepoint else { try sendQueue(); return try query(sql, parameters) }
            return try sendQueue(then: [.prepared(name: name, parameters: encoded)])!
        }
        if case .armed = savepoint {
            savepoint = .sent
            return try queryUnderSavepoint(name, encoded, count: parameters.count)
        }
        roundTrips += 1
        let result = encoded.withPointers { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        return try PostgresRows(checking: result, connection: self)
    }

    /// `SAVEPOINT`, the prepared statement `name` and `RELEASE SAVEPOINT` in one round trip
    /// (pipeline mode, one sync point): the statement's rows, or its error with the savepoint left
    /// in place (the server skips the release once the statement failed), so the caller can roll
    /// back to it. Three round trips before, for every row a save writes.
    private func queryUnderSavepoint(_ name: String, _ encoded: PostgresParameters, count: Int) throws -> PostgresRows {
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        defer { PQexitPipelineMode(handle) }
        let sent = PQsendQueryParams(handle, "SAVEPOINT \(Self.savepointName)", 0, nil, nil, nil, nil, 1) == 1
            && encoded.withPointers { values, lengths, formats in PQsendQueryPrepared(handle, name, Int32(count), values, lengths, formats, 1) } == 1
            && PQsendQueryParams(handle, "RELEASE SAVEPOINT \(Self.savepointName)", 0, nil, nil, nil, nil, 1) == 1
            && PQpipelineSync(handle) == 1
        guard sent else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        roundTrips += 1
        // Three results, each followed by a nil, then the sync's own result.
        var results: [OpaquePointer?] = []
        defer { for (n, result) in results.enumerated() where n != 1 { PQclear(result) } }
        var emptyAnswers = 0
        while true {
            guard let result = PQgetResult(handle) else {
                if !stillExpectingResults(&emptyAnswers) { break }
                continue
            }
            emptyAnswers = 0
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC { PQclear(result); break }
            results.append(result)
        }
        guard results.count == 3 else {
            // The connection went away mid-way: whatever came back is freed here.
            if results.count > 1 { PQclear(results[1]) }
            throw PostgresError(result: nil, connection: handle, settings: settings)
        }
        if PQresultStatus(results[0]) != PGRES_COMMAND_OK {
            PQclear(results[1])
            savepoint = .armed  // no savepoint was made: nothing to roll back to
            throw PostgresError(result: results[0], connection: handle, settings: settings)
        }
        let rows = try PostgresRows(checking: results[1], connection: self)
        if PQresultStatus(results[2]) != PGRES_COMMAND_OK { throw PostgresError(result: results[2], connection: handle, settings: settings) }
        return rows
    }

    /// Runs one prepared statement once per row of `rows` in pipeline mode, inside the caller's
    /// transaction. Throws the first failure (the rest of that chunk is aborted by the server, and the
    /// caller's transaction is then failed and must be rolled back).
    func run(_ sql: String, rows: [[SQLValue]]) throws {
        if !queued.isEmpty || beginPending { try sendQueue() }
        guard let first = rows.first else { return }
        if rows.count == 1 { try query(sql, first); return }
        let types = PostgresParameters(first).types
        let name = try statement(sql, types: types)
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        defer { PQexitPipelineMode(handle) }
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + Self.pipelineChunk, rows.count)]
            for row in chunk {
                let encoded = PostgresParameters(row)
                let sent = encoded.withPointers { values, lengths, formats in
                    encoded.types == types
                        ? PQsendQueryPrepared(handle, name, Int32(row.count), values, lengths, formats, 1)
                        : PQsendQueryParams(handle, sql, Int32(row.count), encoded.types, values, lengths, formats, 1)
                }
                guard sent == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
            }
            try syncPipeline { _ in }
            start += chunk.count
        }
    }

    /// Ends the pipeline's batch with a sync point and reads its results up to it: `each` sees every
    /// statement's successful result (freed after). Throws the first failure once all are read
    /// (the statements after it were aborted by the server).
    func syncPipeline(_ each: (OpaquePointer) -> Void) throws {
        guard PQpipelineSync(handle) == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        roundTrips += 1
        var failure: PostgresError?
        var emptyAnswers = 0
        // One result per statement (each followed by a nil), then the sync's own result.
        while true {
            guard let result = PQgetResult(handle) else {
                if !stillExpectingResults(&emptyAnswers) { throw failure ?? PostgresError(result: nil, connection: handle, settings: settings) }
                continue
            }
            emptyAnswers = 0
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { PQclear(result); break }
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                each(result)
            } else if status == PGRES_FATAL_ERROR, failure == nil {
                failure = PostgresError(result: result, connection: handle, settings: settings)
            } else if status != PGRES_PIPELINE_ABORTED, failure == nil {
                failure = PostgresError(sqlstate: "XX000", message: "unexpected result status \(status.rawValue) in a pipeline")
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    /// Called when a pipeline's `PQgetResult` gave no result (the end of one statement's results):
    /// false when the connection is gone. From the second empty answer in a row on, the socket is
    /// read without waiting (`PQconsumeInput`), so a server that closed the connection before
    /// answering (a restarted server) is seen instead of libpq being asked again and again; after
    /// many, the wait yields the processor for 10 ms at a time, and gives up after about 15 minutes.
    func stillExpectingResults(_ emptyAnswers: inout Int) -> Bool {
        guard isAlive else { return false }
        emptyAnswers += 1
        if emptyAnswers < 2 { return true }
        guard PQconsumeInput(handle) == 1, isAlive else { return false }
        if emptyAnswers > 1_000 {
            var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            _ = poll(&socket, 1, 10)
        }
        return emptyAnswers < 100_000
    }

    /// The name of the prepared statement for `sql` with these parameter types, preparing it once.
    func statement(_ sql: String, types: [UInt32]) throws -> String {
        if let last = lastPrepared, last.key.sql == sql, last.key.types.count == types.count,
           zip(types, last.key.types).allSatisfy({ $0 == 0 || $0 == $1 }) {
            // A NULL (type 0, "unknown") fits a parameter of any type: rows that differ only in
            // which values are NULL share the statement found last.
            return last.name
        }
        let key = PreparedKey(sql: sql, types: types)
        if let name = prepared[key] {
            lastPrepared = (key, name)
            return name
        }
        let name = "strata_\(prepared.count)"
        roundTrips += 1
        let result = PQprepare(handle, name, sql, Int32(types.count), types)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw PostgresError(result: result, connection: handle, settings: settings) }
        prepared[key] = name
        return name
    }
}
