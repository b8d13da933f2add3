import CLibPQ
import Foundation
import StrataSQLSupport

/// A save's INSERTs, queued and sent many per round trip (`SQLConnection.queuesInserts`).
///
/// Why: the shared save ran each INSERT alone, under a savepoint (`attempt`), one round trip per
/// row: a 100,000-record save waited for 100,000 answers. Queued rows go out in pipeline mode,
/// `pipelineChunk` per sync point, as the C baseline sends them.
///
/// A row that collides with a unique value must not abort the transaction (the save holds such a
/// value back and sets it again at the end: a collision mid-save is not final). Each queued row
/// runs as `INSERT … ON CONFLICT DO NOTHING`: a row the server refuses for a unique value (every
/// `UNIQUE` index of the store's tables is an arbiter; none is deferrable) inserts nothing and
/// reports 0 rows, and the transaction goes on — no savepoint, so no subtransaction per row
/// either. Any other failure aborts the transaction and is thrown; the save rolls back.
///
/// Every other statement sends the queue first (`query`, `execute`, `run`), so a read inside the
/// save sees every row queued before it; `beginWrite` and `rollback` discard what a failed save
/// left queued.
extension PostgresConnection {
    var queuesInserts: Bool { true }

    /// A full chunk goes out at once: a big save's rows are not all held in memory twice.
    func queueInsert(_ statement: PostgresStatement) throws {
        queuedInserts.append((statement.sql, statement.parameters))
        if queuedInserts.count >= Self.pipelineChunk { try sendQueue() }
    }

    func sendQueuedInserts() throws -> [Int] {
        if !queuedInserts.isEmpty { try sendQueue() }
        defer {
            refusedInserts = []
            insertsSinceLastSend = 0
        }
        return refusedInserts
    }

    /// Forgets the queue and its refusals (a new or rolled-back transaction).
    func discardQueue() {
        queuedInserts = []
        refusedInserts = []
        insertsSinceLastSend = 0
    }

    /// Sends every queued row, `pipelineChunk` per sync point, noting the refused ones.
    func sendQueue() throws {
        let queue = queuedInserts
        queuedInserts = []
        var start = 0
        var last: (sql: String, types: [UInt32], name: String)?
        while start < queue.count {
            let chunk = queue[start..<min(start + Self.pipelineChunk, queue.count)]
            // Encoded and prepared before the pipeline starts (`PQprepare` waits for its answer);
            // the types change with the NULLs a row holds.
            var rows: [(name: String, parameters: PostgresParameters)] = []
            rows.reserveCapacity(chunk.count)
            for row in chunk {
                let encoded = PostgresParameters(row.parameters)
                let name: String
                if let last, last.sql == row.sql, last.types == encoded.types {
                    name = last.name
                } else {
                    name = try statement(row.sql + " ON CONFLICT DO NOTHING", types: encoded.types)
                    last = (row.sql, encoded.types, name)
                }
                rows.append((name, encoded))
            }
            try sendPipelined(rows, first: insertsSinceLastSend)
            insertsSinceLastSend += chunk.count
            start += chunk.count
        }
    }

    /// One pipeline: `rows` sent, one sync point, their results read. A row that inserted nothing
    /// was refused for a unique value: its position, counted from `first`, goes into `refusedInserts`.
    private func sendPipelined(_ rows: [(name: String, parameters: PostgresParameters)], first: Int) throws {
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        defer { PQexitPipelineMode(handle) }
        for row in rows {
            let sent = row.parameters.withPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, row.name, Int32(row.parameters.types.count), values, lengths, formats, 1)
            }
            guard sent == 1 else { throw PostgresError(result: nil, connection: handle, settings: settings) }
        }
        // Only successful rows are seen, and a failure ends the save: positions stay right.
        var position = first
        try syncPipeline { result in
            // "0": ON CONFLICT DO NOTHING skipped the row.
            if let tuples = PQcmdTuples(result), tuples[0] == 0x30, tuples[1] == 0 { refusedInserts.append(position) }
            position += 1
        }
    }
}
