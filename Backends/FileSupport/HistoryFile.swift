import Foundation
@_spi(StrataEngine) import Strata
#if canImport(Glibc)
import Glibc
#endif

/// The persisted history of a store kept in files (JSON, XML, CSV): a file beside the store's own
/// (`<document>.history`; `history.journal` in a CSV folder), an append-only `Journal` of one line
/// per transaction.
///
/// A line is `{"seq": S, "transaction": {…}}` (`StoreHistoryTransaction.encoded()`), where `S` is
/// the store's own commit number for the save that made it (the journal sequence of JSON and XML,
/// the manifest generation of CSV). A save appends and syncs its history line *before* its commit
/// point (the journal line, the manifest rename), so a committed save always has its transaction;
/// a line whose `S` is above the store's committed number belongs to a save that was killed or
/// failed before committing and is ignored by readers and cut off by the writer's next append. So
/// history and data never disagree, whatever moment a writer is killed at, and one file serves
/// every file backend without touching their formats.
///
/// `deleteHistory` rewrites the file atomically (temporary file, sync, rename): a first line
/// `{"last": L, "horizon": H}` keeps the newest transaction ever recorded and the deletion horizon,
/// then the kept transactions.
@_spi(StrataEngine) public struct HistoryFile: Sendable {
    /// The file's path.
    public let path: String

    /// The history file at `path`.
    public init(path: String) { self.path = path }

    /// What `load` found, and where a writer appends next.
    public struct Loaded: Sendable {
        /// The committed transactions with the store's counters.
        public var log = HistoryLog()
        /// The offset after the last committed line.
        public var end = 0
        /// Whether that line lacks its line end.
        public var needsLineEnd = false
        /// The file's stamp when read (`nil`: no file).
        public var stamp: FileStamp?
        /// Nothing recorded yet.
        public init() {}
    }

    private struct Line: Decodable {
        var seq: Int64?
        var last: Int64?
        var horizon: Int64?
        var transaction: StoreHistoryTransaction?
    }

    /// Reads the transactions of saves committed through `sequence` (later lines are of saves that
    /// never committed). Never writes.
    ///
    /// - Throws: `corruptStore` naming the file and offset for a damaged line, transactions out of
    ///   order, or a transaction of another store.
    public func load(committedThrough sequence: Int64, storeIdentifier: String) throws -> Loaded {
        var loaded = Loaded()
        loaded.stamp = FileStamp(path)
        guard loaded.stamp != nil, let bytes = try DurableFile.read(path) else { return loaded }
        let scan = try Journal.scan(bytes, file: path)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        var transactions: [StoreHistoryTransaction] = []
        // `last` is the newest transaction ever recorded (the first line's counter after a
        // deletion, which may name a transaction the file no longer holds); `previous` the one
        // before in the file: each transaction follows `previous` and the horizon.
        var last: Int64 = 0, horizon: Int64 = 0, previous: Int64 = 0
        for (n, line) in scan.lines.enumerated() {
            func corrupt(_ why: String) -> StrataError {
                StrataError(.corruptStore, "The history file is damaged at byte \(line.offset) (\(why)); delete the store's history (or restore it from a backup).", file: path, offset: line.offset)
            }
            guard let entry = try? decoder.decode(Line.self, from: Data(line.body)) else { throw corrupt("not a history line") }
            if let transaction = entry.transaction {
                guard let seq = entry.seq else { throw corrupt("a transaction without its commit number") }
                guard seq <= sequence else { break }  // a save that never committed, and nothing after it
                guard transaction.token.storeIdentifier == storeIdentifier else { throw corrupt("a transaction of another store, \(transaction.token.storeIdentifier)") }
                guard transaction.token.transaction > max(previous, horizon) else { throw corrupt("transaction \(transaction.token.transaction) does not follow \(max(previous, horizon))") }
                transactions.append(transaction)
                previous = transaction.token.transaction
                last = max(last, previous)
            } else if n == 0, let l = entry.last, let h = entry.horizon {
                last = l
                horizon = h
            } else {
                throw corrupt("neither a transaction nor the first line's counters")
            }
            loaded.end = n + 1 < scan.lines.count ? scan.lines[n + 1].offset : scan.end
            loaded.needsLineEnd = n + 1 == scan.lines.count && scan.needsLineEnd
        }
        loaded.log = HistoryLog(transactions: transactions, lastTransaction: last, horizon: horizon)
        return loaded
    }

    private static func line(_ transaction: StoreHistoryTransaction, sequence: Int64) throws -> [UInt8] {
        var body = Array("{\"seq\":\(sequence),\"transaction\":".utf8)
        transaction.encode(into: &body)
        body.append(UInt8(ascii: "}"))
        return Journal.line(body)
    }

    /// Appends (and syncs) the transaction of the save that will commit as number `sequence`,
    /// after cutting off anything past `end` (a save that never committed); returns the new end.
    /// Call it with the writer lock held, before the save's commit point.
    ///
    /// - Throws: `ioFailure`, with the file as long as before.
    public func append(_ transaction: StoreHistoryTransaction, sequence: Int64, end: Int, needsLineEnd: Bool) throws -> Int {
        try Journal.append(try Self.line(transaction, sequence: sequence), to: path, end: end, needsLineEnd: needsLineEnd)
    }

    /// Replaces the file with `log` (after `deleteHistory`), atomically; returns its length.
    ///
    /// - Parameter sequence: the store's committed number (every line written is committed).
    /// - Throws: `ioFailure`, with the old file in place.
    public func rewrite(_ log: HistoryLog, sequence: Int64) throws -> Int {
        var bytes = Journal.line(Array("{\"last\":\(log.lastTransaction),\"horizon\":\(log.horizon)}".utf8))
        for transaction in log.transactions { bytes += try Self.line(transaction, sequence: sequence) }
        try DurableFile.replace(path, with: bytes)
        return bytes.count
    }

    /// Removes the file (a new store created where an old one's history was left behind).
    public func remove() { unlink(path) }
}
