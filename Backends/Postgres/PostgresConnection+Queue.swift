import CLibPQ
import Foundation
import StrataSQLSupport

/// A save's INSERTs and unanswered writes, queued and sent many per round trip
/// (`SQLConnection.queuesInserts`, `SQLConnection.queueWrite`).
///
/// Why: the shared save ran each INSERT alone, under a savepoint (`attempt`), one round trip per
/// row: a 100,000-record save waited for 100,000 answers. Queued rows go out in pipeline mode,
/// `pipelineChunk` per sync point, as the C baseline sends them. The same holds for the writes
/// whose answer the save does not need (an UPDATE of columns no unique constraint covers, a
/// join-table row, a list position): they waited for one round trip each.
///
/// A row that collides with a unique value must not abort the transaction (the save holds such a
/// value back and sets it again at the end: a collision mid-save is not final). Each queued INSERT
/// runs as `INSERT … ON CONFLICT DO NOTHING`: a row the server refuses for a unique value (every
/// `UNIQUE` index of the store's tables is an arbiter; none is deferrable) inserts nothing and
/// reports 0 rows, and the transaction goes on — no savepoint, so no subtransaction per row
/// either. A queued write cannot be refused for a unique value. Any other failure aborts the
/// transaction and is thrown; the save rolls back.
///
/// Every other statement sends the queue first, **in the same pipeline** (`query`: the queue, then
/// the statement, one sync point; the save's COMMIT likewise, `commit(notifying:)`), so a read
/// inside the save sees every row queued before it and a queued write costs no round trip of its
/// own. `beginWrite` and `rollback` discard what a failed save left queued.
extension PostgresConnection {
    var queuesInserts: Bool { true }

    /// A statement waiting in the queue: a save's INSERT of a record (`queueInsert`, refusals
    /// noted) or a write whose answer is not needed (`queueWrite`).
    struct Queued {
        let sql: String
        let parameters: [SQLValue]
        let isInsert: Bool
    }

    /// What a pipeline carries after the queue: a prepared statement whose rows the caller wants,
    /// or a command without parameters (`NOTIFY`, `COMMIT`).
    enum PipelineTail {
        case prepared(name: String, parameters: PostgresParameters)
        case command(String)
        /// Fails (division by zero) unless the store records this schema fingerprint.
        case fingerprintGuard(String)
    }

    /// The guard of a pending begin (`beginWrite`): no row or another fingerprint divides by zero.
    static let fingerprintGuardSQL = "SELECT 1 / (CASE WHEN (\(SQLText.recordedFingerprint.sql)) = $1 THEN 1 ELSE 0 END)"

    /// A full chunk goes out at once: a big save's rows are not all held in memory twice.
    func queueInsert(_ statement: PostgresStatement) throws {
        queued.append(Queued(sql: statement.sql, parameters: statement.parameters, isInsert: true))
        if queued.count >= Self.pipelineChunk { try sendQueue() }
    }

    func queueWrite(_ statement: PostgresStatement) throws {
        queued.append(Queued(sql: statement.sql, parameters: statement.parameters, isInsert: false))
        if queued.count >= Self.pipelineChunk { try sendQueue() }
    }

    func sendQueuedInserts() throws -> [Int] {
        if !queued.isEmpty { try sendQueue() }
        defer {
            refusedInserts = []
            insertsSinceLastSend = 0
        }
        return refusedInserts
    }

    /// Forgets the queue and its refusals (a new or rolled-back transaction).
    func discardQueue() {
        queued = []
        refusedInserts = []
        insertsSinceLastSend = 0
    }

    /// Sends every queued statement, `pipelineChunk` per sync point, noting the refused INSERTs;
    /// `tail` goes in the last pipeline, after the queue. Returns the rows of a `.prepared` first
    /// element of `tail`.
    @discardableResult
    func sendQueue(then tail: [PipelineTail] = []) throws -> PostgresRows? {
        let queue = queued
        queued = []
        // A pending begin goes first (`beginWrite`): BEGIN, the write lock, the schema guard.
        var head: [PipelineTail] = []
        if beginPending {
            beginPending = false
            head = [.command("BEGIN"), .command("SELECT pg_advisory_xact_lock(\(writeLockKey))"), .fingerprintGuard(openedFingerprint ?? "")]
        }
        var start = 0
        var last: (sql: String, types: [UInt32], name: String)?
        var rows: PostgresRows?
        repeat {
            let chunk = queue[start..<min(start + Self.pipelineChunk, queue.count)]
            // Encoded and prepared before the pipeline starts (`PQprepare` waits for its answer);
            // the types change with the NULLs a row holds.
            var encoded: [(name: String, parameters: PostgresParameters, isInsert: Bool)] = []
            encoded.reserveCapacity(chunk.count)
            for row in chunk {
                let parameters = PostgresParameters(row.parameters)
                let name: String
                if let last, last.sql == row.sql, last.types == parameters.types {
                    name = last.name
                } else {
                    name = try statement(row.isInsert ? row.sql + " ON CONFLICT DO NOTHING" : row.sql, types: parameters.types)
                    last = (row.sql, parameters.types, name)
                }
                encoded.append((name, parameters, row.isInsert))
            }
            start += chunk.count
            rows = try sendPipelined(head, encoded, then: start >= queue.count ? tail : [])
            head = []
        } while start < queue.count
        return rows
    }

    /// One pipeline: `head`, `rows`, then `tail`, one sync point, their results read. An INSERT
    /// that inserted nothing was refused for a unique value: its position among the INSERTs since
    /// the last `sendQueuedInserts` goes into `refusedInserts`. Throws the first failure once every
    /// result is read (the statements after it were aborted by the server); a failed fingerprint
    /// guard sets `schemaChanged`, a connection lost in a pipeline that began the transaction and
    /// holds no COMMIT sets `lostBeforeWriting`.
    private func sendPipelined(_ head: [PipelineTail], _ rows: [(name: String, parameters: PostgresParameters, isInsert: Bool)], then tail: [PipelineTail]) throws -> PostgresRows? {
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        defer { PQexitPipelineMode(handle) }
        let commits = tail.contains { if case .command(let sql) = $0 { sql == "COMMIT" } else { false } }
        func lost() -> PostgresError {
            if !head.isEmpty && !commits { lostBeforeWriting = true }
            return PostgresError(result: nil, connection: handle, settings: settings)
        }
        func send(_ item: PipelineTail) -> Int32 {
            switch item {
            case .prepared(let name, let parameters):
                parameters.withPointers { values, lengths, formats in
                    PQsendQueryPrepared(handle, name, Int32(parameters.types.count), values, lengths, formats, 1)
                }
            case .command(let sql):
                PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 1)
            case .fingerprintGuard(let fingerprint):
                fingerprint.withCString { value in
                    [Optional(value)].withUnsafeBufferPointer { PQsendQueryParams(handle, Self.fingerprintGuardSQL, 1, nil, $0.baseAddress, nil, nil, 1) }
                }
            }
        }
        for item in head { guard send(item) == 1 else { throw lost() } }
        for row in rows {
            let sent = row.parameters.withPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, row.name, Int32(row.parameters.types.count), values, lengths, formats, 1)
            }
            guard sent == 1 else { throw lost() }
        }
        for item in tail { guard send(item) == 1 else { throw lost() } }
        guard PQpipelineSync(handle) == 1 else { throw lost() }
        roundTrips += 1
        var failure: PostgresError?
        var kept: OpaquePointer?
        var index = 0
        let firstRow = head.count, firstTail = head.count + rows.count
        var emptyAnswers = 0
        // One result per statement (each followed by a nil), then the sync's own result.
        while true {
            guard let result = PQgetResult(handle) else {
                if !stillExpectingResults(&emptyAnswers) {
                    PQclear(kept)
                    let error = lost()
                    throw failure ?? error
                }
                continue
            }
            emptyAnswers = 0
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { PQclear(result); break }
            defer { index += 1 }
            let succeeded = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
            if succeeded, index >= firstRow, index < firstTail, rows[index - firstRow].isInsert {
                // "0": ON CONFLICT DO NOTHING skipped the row.
                if let tuples = PQcmdTuples(result), tuples[0] == 0x30, tuples[1] == 0 { refusedInserts.append(insertsSinceLastSend) }
                insertsSinceLastSend += 1
            }
            if succeeded, index == firstTail, case .prepared = tail.first {
                kept = result
                continue
            }
            if !succeeded, failure == nil {
                if index < firstRow, case .fingerprintGuard = head[index], status == PGRES_FATAL_ERROR { schemaChanged = true }
                failure = status == PGRES_PIPELINE_ABORTED
                    ? PostgresError(sqlstate: "XX000", message: "a pipelined statement was aborted with no failure before it")
                    : status == PGRES_FATAL_ERROR
                    ? PostgresError(result: result, connection: handle, settings: settings)
                    : PostgresError(sqlstate: "XX000", message: "unexpected result status \(status.rawValue) in a pipeline")
            }
            PQclear(result)
        }
        if let failure {
            PQclear(kept)
            throw failure
        }
        return try kept.map { try PostgresRows(checking: $0, connection: self) }
    }
}
