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
/// the statement, one sync point; the save's COMMIT likewise, `commit(notify:)`), so a read
/// inside the save sees every row queued before it and a queued write costs no round trip of its
/// own. `beginWrite` and `rollback` discard what a failed save left queued.
extension PostgresConnection {
    var queuesInserts: Bool { true }

    /// A statement waiting in the queue: a save's INSERT of a record (`queueInsert`, refusals
    /// noted) or a write whose answer is not needed (`queueWrite`), with its prepared statement's
    /// name and its parameters, encoded when queued (`QueuedParameters`).
    struct Queued {
        let name: String
        /// The row's first parameter in `queuedParameters`, and how many it has.
        let first: Int
        let count: Int
        let isInsert: Bool
    }

    /// The parameters of every queued statement, in libpq's binary format, one buffer for the
    /// whole queue. Why: a `[SQLValue]` kept per row, then encoded per row into three arrays and
    /// handed to libpq through three more, cost an insert about 6,000 instructions a row in
    /// allocations and reference counting.
    struct QueuedParameters {
        /// Every value's bytes, one after another.
        var bytes: [UInt8] = []
        /// Per parameter: where its bytes start in `bytes`, -1 for NULL.
        var offsets: [Int] = []
        /// Per parameter: how many bytes.
        var lengths: [Int32] = []
        /// The most parameters one queued statement has.
        var widest = 0

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            widest = 0
        }

        /// Appends `values` in binary; returns the first one's index.
        mutating func append(_ values: [SQLValue]) -> Int {
            let first = offsets.count
            widest = max(widest, values.count)
            for value in values {
                let start = bytes.count
                switch value {
                case .null:
                    offsets.append(-1)
                    lengths.append(0)
                    continue
                case .integer(let v): withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
                case .real(let v): withUnsafeBytes(of: v.bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
                case .text(let t): bytes.append(contentsOf: t.utf8)
                case .blob(let d): bytes.append(contentsOf: d)
                }
                offsets.append(start)
                lengths.append(Int32(bytes.count - start))
            }
            return first
        }
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
        try enqueue(statement, isInsert: true)
    }

    func queueWrite(_ statement: PostgresStatement) throws {
        try enqueue(statement, isInsert: false)
    }

    /// Queues `statement` with its bound parameters, encoded now, under the name of its prepared
    /// statement (`queueName`).
    private func enqueue(_ statement: PostgresStatement, isInsert: Bool) throws {
        let parameters = statement.parameters
        let name = try queueName(statement, parameters, isInsert: isInsert)
        let first = queuedParameters.append(parameters)
        queued.append(Queued(name: name, first: first, count: parameters.count, isInsert: isInsert))
        if queued.count >= Self.pipelineChunk { try sendQueue() }
    }

    /// The prepared statement a queued row of `statement` runs as (an INSERT with `ON CONFLICT DO
    /// NOTHING`), kept on the statement: the row's parameter types are compared with the kept
    /// statement's, and a NULL (no type) fits any. Only another shape of types prepares (or
    /// finds) another statement: no hashing of the SQL text per row.
    private func queueName(_ statement: PostgresStatement, _ parameters: [SQLValue], isInsert: Bool) throws -> String {
        if let kept = statement.queued, kept.isInsert == isInsert, kept.types.count == parameters.count {
            var fits = true
            for (i, value) in parameters.enumerated() {
                let type = PostgresParameters.type(of: value)
                if type != 0 && type != kept.types[i] { fits = false; break }
            }
            if fits { return kept.name }
        }
        let types = parameters.map(PostgresParameters.type(of:))
        let name = try self.statement(isInsert ? statement.sql + " ON CONFLICT DO NOTHING" : statement.sql, types: types)
        statement.queued = (isInsert, types, name)
        return name
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
        queued.removeAll(keepingCapacity: true)
        queuedParameters.removeAll()
        refusedInserts = []
        insertsSinceLastSend = 0
    }

    /// Sends every queued statement, `pipelineChunk` per sync point, noting the refused INSERTs;
    /// `tail` goes in the last pipeline, after the queue. Returns the rows of a `.prepared` first
    /// element of `tail`.
    @discardableResult
    func sendQueue(then tail: [PipelineTail] = []) throws -> PostgresRows? {
        // Emptied whatever happens: a failed save rolls back and sends none of it.
        defer {
            queued.removeAll(keepingCapacity: true)
            queuedParameters.removeAll()
        }
        // A pending begin goes first (`beginWrite`): BEGIN, the write lock, the schema guard.
        var head: [PipelineTail] = []
        if beginPending {
            beginPending = false
            head = [.command("BEGIN"), .command(writeLockSQL), .fingerprintGuard(openedFingerprint ?? "")]
        }
        var start = 0
        var rows: PostgresRows?
        repeat {
            let end = min(start + Self.pipelineChunk, queued.count)
            rows = try sendPipelined(head, start..<end, then: end >= queued.count ? tail : [])
            head = []
            start = end
        } while start < queued.count
        return rows
    }

    /// One pipeline: `head`, the queued statements `rows`, then `tail`, one sync point, their
    /// results read. An INSERT
    /// that inserted nothing was refused for a unique value: its position among the INSERTs since
    /// the last `sendQueuedInserts` goes into `refusedInserts`. Throws the first failure once every
    /// result is read (the statements after it were aborted by the server); a failed fingerprint
    /// guard sets `schemaChanged`, a connection lost in a pipeline that began the transaction and
    /// holds no COMMIT sets `lostBeforeWriting`.
    private func sendPipelined(_ head: [PipelineTail], _ rows: Range<Int>, then tail: [PipelineTail]) throws -> PostgresRows? {
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
                // The string's own bytes (`withCString`), not a copy made per call.
                sql.withCString { PQsendQueryParams(handle, $0, 0, nil, nil, nil, nil, 1) }
            case .fingerprintGuard(let fingerprint):
                fingerprint.withCString { value in
                    [Optional(value)].withUnsafeBufferPointer { PQsendQueryParams(handle, Self.fingerprintGuardSQL, 1, nil, $0.baseAddress, nil, nil, 1) }
                }
            }
        }
        for item in head { guard send(item) == 1 else { throw lost() } }
        if !rows.isEmpty {
            // One pointer array for every row (libpq copies the values before it returns).
            let sent = queuedParameters.bytes.withUnsafeBufferPointer { buffer in
                let base = UnsafeRawPointer(buffer.baseAddress) ?? UnsafeRawPointer(bitPattern: 1)!
                let width = queuedParameters.widest
                return withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: max(width, 1)) { values in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(width, 1)) { formats in
                        formats.initialize(repeating: 1)
                        return queuedParameters.lengths.withUnsafeBufferPointer { lengths in
                            for n in rows {
                                let row = queued[n]
                                for j in 0..<row.count {
                                    let offset = queuedParameters.offsets[row.first + j]
                                    values.initializeElement(at: j, to: offset < 0 ? nil : (base + offset).assumingMemoryBound(to: CChar.self))
                                }
                                let sent = row.name.withCString {
                                    PQsendQueryPrepared(handle, $0, Int32(row.count), values.baseAddress, lengths.baseAddress.map { $0 + row.first }, formats.baseAddress, 1)
                                }
                                guard sent == 1 else { return false }
                            }
                            return true
                        }
                    }
                }
            }
            guard sent else { throw lost() }
        }
        for item in tail { guard send(item) == 1 else { throw lost() } }
        guard PQpipelineSync(handle) == 1 else { throw lost() }
        roundTrips += 1
        var failure: PostgresError?
        var kept: OpaquePointer?
        var index = 0
        let firstRow = head.count, firstTail = head.count + rows.count
        let rowsStart = rows.lowerBound
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
            if succeeded, index >= firstRow, index < firstTail, queued[rowsStart + index - firstRow].isInsert {
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
