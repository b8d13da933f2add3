import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// The store's persisted history, kept in `strata.meta` beside the key counters so it is written by
/// the save's own write transaction (atomic with the data) and needs no database of its own (an
/// environment made before history opens unchanged): one entry per transaction under
/// `history.<number, 20 digits>` (so key order is token order), the encoded
/// `StoreHistoryTransaction`. `history_horizon` (8 bytes big-endian) holds the newest number
/// deleted: the floor of the next number once every entry is deleted, so numbers are never reused.
/// The newest number is the last entry's, or the horizon, whichever is larger (`newest`); a save
/// writes only its entry. Environments written before also kept `history_last`, the newest number
/// recorded, which always equals that maximum: read as a third floor, no longer written.
struct LMDBHistory {
    let txn: OpaquePointer
    let meta: MDB_dbi
    let file: String

    static let prefix = Array("history.".utf8)

    static func entryKey(_ number: Int64) -> [UInt8] {
        var key = [UInt8](repeating: UInt8(ascii: "0"), count: prefix.count + 20)
        for i in prefix.indices { key[i] = prefix[i] }
        var rest = number.magnitude, i = key.count - 1
        while rest > 0 && i >= prefix.count {
            key[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            i -= 1
        }
        return key
    }

    private func counter(_ name: String) throws -> Int64 {
        guard let bytes = try LMDBMeta.get(txn, meta, name) else { return 0 }
        guard bytes.count == 8 else { throw StrataError(.corruptStore, "The history counter '\(name)' in the metadata database is damaged.", file: file) }
        return bytes.withUnsafeBytes { LMDBKeyCodec.readBigEndian($0.baseAddress!) }
    }

    private func setCounter(_ name: String, _ value: Int64) throws {
        try LMDBMeta.put(txn, meta, name, withUnsafeBytes(of: LMDBKeyCodec.bigEndian(value)) { Array($0) })
    }

    /// The newest transaction number recorded or deleted (0: none): the last entry's, the horizon
    /// or an older Strata's `history_last`, whichever is largest.
    var newest: Int64 { get throws { max(try lastEntry, try horizon, try counter("history_last")) } }

    /// The number of the last entry (0: none): one cursor step back from the first key after the
    /// entries' prefix.
    private var lastEntry: Int64 {
        get throws {
            var cursor: OpaquePointer?
            try lmdbCheck(mdb_cursor_open(txn, meta, &cursor), "open a cursor")
            defer { mdb_cursor_close(cursor) }
            var after = Self.prefix
            after[after.count - 1] += 1  // "history/": every entry key sorts before it
            return try after.withUnsafeMutableBytes { raw in
                var k = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
                var data = MDB_val()
                var rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_RANGE)
                if rc == MDB_NOTFOUND {
                    rc = mdb_cursor_get(cursor, &k, &data, MDB_LAST)
                } else {
                    try lmdbCheck(rc, "read the history")
                    rc = mdb_cursor_get(cursor, &k, &data, MDB_PREV)
                }
                if rc == MDB_NOTFOUND { return 0 }
                try lmdbCheck(rc, "read the history")
                let key = k.bytes
                guard key.count == Self.prefix.count + 20, key.starts(with: Self.prefix) else { return 0 }
                guard let number = Int64(String(decoding: key[Self.prefix.count...], as: UTF8.self)) else {
                    throw StrataError(.corruptStore, "A history entry key in the metadata database is damaged.", file: file)
                }
                return number
            }
        }
    }
    /// The newest deleted transaction number (0: none).
    var horizon: Int64 { get throws { try counter("history_horizon") } }

    /// Raises the environment's `format` to `LMDBMeta.historyFormatVersion` if it is below: called
    /// in the write transaction of a save that records, whenever the store does not know that its
    /// own last save recorded (then the format is raised already), so an older Strata, which would
    /// number from the stale `history_last`, refuses the environment (`newerFormat`) rather than
    /// overwrite entries. One metadata read on such a save; a write only the first time.
    func raiseFormat() throws {
        let format = try LMDBMeta.get(txn, meta, "format")
        let version = format.flatMap { $0.count == 4 ? $0.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) } : nil } ?? 0
        guard version < LMDBMeta.historyFormatVersion else { return }
        try LMDBMeta.put(txn, meta, "format", withUnsafeBytes(of: LMDBMeta.historyFormatVersion.bigEndian) { Array($0) })
    }

    /// Appends the transaction `recorder` built as number `number` (after `newest`, by the caller).
    func append(_ number: Int64, _ recorder: HistoryRecorder, author: String?) throws {
        try put(number) { write in recorder.withEncodedTransaction(number, author: author, write) }
    }

    /// Writes entry `number` with the bytes `encode` hands to its argument (`mdb_put`, whose
    /// result it returns): the key on the stack and the JSON in the writer's buffer, which LMDB
    /// copies into its page.
    func put(_ number: Int64, _ encode: ((UnsafeRawBufferPointer) -> Int32) -> Int32) throws {
        var key: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes ≥ "history." + 20 digits
        let rc = withUnsafeMutableBytes(of: &key) { k in
            let count = Self.writeEntryKey(number, into: k)
            return encode { v in
                var kv = MDB_val(mv_size: count, mv_data: k.baseAddress)
                var vv = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
                return mdb_put(txn, meta, &kv, &vv, 0)
            }
        }
        try lmdbCheck(rc, "write a history transaction")
    }

    /// Writes `entryKey(number)` into `buffer` (at least 28 bytes) and returns its length.
    static func writeEntryKey(_ number: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = prefix.count + 20
        for i in prefix.indices { buffer[i] = prefix[i] }
        var rest = number.magnitude
        for i in (prefix.count..<count).reversed() {
            buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        return count
    }

    /// Visits the entries from number `first` in order; stop by returning false.
    func scan(from first: Int64, _ body: (Int64, UnsafeRawBufferPointer) throws -> Bool) throws {
        var cursor: OpaquePointer?
        try lmdbCheck(mdb_cursor_open(txn, meta, &cursor), "open a cursor")
        defer { mdb_cursor_close(cursor) }
        var start = Self.entryKey(first)
        try start.withUnsafeMutableBytes { raw in
            var k = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
            var data = MDB_val()
            var rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_RANGE)
            while rc == 0 {
                let key = k.bytes
                guard key.count == Self.prefix.count + 20, key.starts(with: Self.prefix),
                    let number = Int64(String(decoding: key[Self.prefix.count...], as: UTF8.self)) else { return }
                guard try body(number, data.bytes) else { return }
                rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "read the history") }
        }
    }

    /// The transactions `query` selects.
    func fetch(_ query: HistoryQuery, storeIdentifier: String) throws -> [StoreHistoryTransaction] {
        let first = try query.firstTransaction(storeIdentifier: storeIdentifier, horizon: horizon)
        var result: [StoreHistoryTransaction] = []
        try scan(from: first) { number, bytes in
            if let through = query.through, number > through.transaction { return false }
            if let limit = query.limit, result.count >= limit { return false }
            let transaction = try StoreHistoryTransaction(decoding: bytes, file: file)
            if query.admits(transaction) { result.append(transaction) }
            return true
        }
        return result
    }

    /// Removes the entries through `number` and moves the horizon.
    func delete(through number: Int64) throws {
        let newest = try self.newest
        var doomed: [Int64] = []
        try scan(from: 0) { n, _ in
            guard n <= number else { return false }
            doomed.append(n)
            return true
        }
        for n in doomed {
            var key = Self.entryKey(n)
            let rc = key.withUnsafeMutableBytes { raw in
                var k = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
                return mdb_del(txn, meta, &k, nil)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "delete a history transaction") }
        }
        let horizon = try self.horizon
        try setCounter("history_horizon", max(horizon, min(number, newest)))
    }
}
