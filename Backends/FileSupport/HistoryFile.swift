import Foundation
@_spi(StrataEngine) import Strata
#if canImport(Glibc)
import Glibc
#endif

/// The persisted history of a store kept in files (JSON, XML, CSV): a file beside the store's own
/// (`<document>.history`; `history.journal` in a CSV folder), an append-only `Journal` of one line
/// per transaction.
///
/// A line is `{"seq": S, "transaction": {…}}` (`StoreHistoryTransaction.encode(into:)`), where `S`
/// is the store's own commit number for the save that made it (the journal sequence of JSON and
/// XML, the manifest generation of CSV). A line whose `S` is above the store's committed number
/// belongs to a save that never committed and is ignored by readers.
///
/// - CSV appends and syncs its line *before* its commit point (the manifest rename), so a committed
///   save always has its line; a killed save's line is cut off by the writer's next append.
/// - JSON and XML write the same line into the journal instead (`journalLine`: `strata-history `
///   and the line's body), just before the save's own line, in the same write and sync: one `fsync`
///   a save. A fold appends the journal's transactions to this file, synced (`appendMissing`),
///   before it empties the journal, so a committed transaction is always in one of the two; readers
///   take the file's and then the journal's the file lacks (`pending`, `merged`). A writer cuts off
///   uncommitted lines an older Strata left (`cutUncommitted`).
///
/// So history and data never disagree, whatever moment a writer is killed or the power fails at,
/// and one file serves every file backend without touching their formats.
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
        /// What the bytes read so far looked like (`nil`: nothing read), for a later `load` to go
        /// on from `end`.
        var mark: Mark?
        /// Nothing recorded yet.
        public init() {}
    }

    /// The checksums of the file's first line and of the last line read, and where that one
    /// starts. A file whose inode number was reused (two `deleteHistory` rewrites between two
    /// reads) is not the file read before unless both lines are still where they were.
    struct Mark: Sendable, Equatable {
        var first: [UInt8]
        var lastStart: Int
        var last: [UInt8]
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
    /// With `previous` (what an earlier `load`, `append` or `rewrite` of this file left), reads
    /// only the lines after its `end` and adds them to its log, as long as the file is still the
    /// one read then: the same inode, not shorter, and its first line and the last line read still
    /// in place. Between two `deleteHistory` rewrites the file only grows (a writer cuts off only
    /// lines of saves that never committed, which no reader took), so a follower decodes each
    /// transaction once however long the history is. A file replaced, cut or rewritten is read
    /// whole. A torn last line (a writer in the middle of its append) is left for the next read.
    ///
    /// - Throws: `corruptStore` naming the file and offset for a damaged line, transactions out of
    ///   order, or a transaction of another store.
    public func load(committedThrough sequence: Int64, storeIdentifier: String, after previous: Loaded? = nil) throws -> Loaded {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return Loaded() }
            throw DurableFile.failure("read the history file", path)
        }
        defer { close(fd) }
        guard let stamp = FileStamp(descriptor: fd) else { throw DurableFile.failure("inspect the history file", path) }
        if let previous, let tail = try Self.tail(fd, stamp: stamp, after: previous, path: path) {
            var loaded = previous
            loaded.stamp = stamp
            guard var tail else { return loaded }  // nothing appended
            try read(&tail, into: &loaded, committedThrough: sequence, storeIdentifier: storeIdentifier)
            return loaded
        }
        var loaded = Loaded()
        loaded.stamp = stamp
        var whole = Tail(bytes: try Self.read(fd, from: 0, path: path), base: 0, from: 0)
        try read(&whole, into: &loaded, committedThrough: sequence, storeIdentifier: storeIdentifier)
        return loaded
    }

    /// Bytes of the file from `base`, of which those from index `from` are new.
    private struct Tail {
        var bytes: [UInt8]
        var base: Int
        var from: Int
    }

    /// The bytes appended since `previous` (`.some(nil)`: none), or `nil` when the open file is not
    /// the one `previous` read on (read it whole).
    private static func tail(_ fd: Int32, stamp: FileStamp, after previous: Loaded, path: String) throws -> Tail?? {
        guard let old = previous.stamp, old.isSameFile(as: stamp), stamp.size >= previous.end, let mark = previous.mark else { return nil }
        if stamp == old, stamp.size == previous.end { return .some(nil) }
        guard try read(fd, from: 0, count: mark.first.count, path: path) == mark.first else { return nil }
        let bytes = try read(fd, from: mark.lastStart, path: path)
        guard bytes.starts(with: mark.last), bytes.count >= previous.end - mark.lastStart else { return nil }
        var from = previous.end - mark.lastStart
        if previous.needsLineEnd, from < bytes.count {
            guard bytes[from] == 0x0A else { return nil }  // the writer adds the line end before its next line
            from += 1
        }
        return from < bytes.count ? .some(Tail(bytes: bytes, base: mark.lastStart, from: from)) : .some(nil)
    }

    /// Reads `fd` from `offset` to its end, or `count` bytes of it.
    private static func read(_ fd: Int32, from offset: Int, count: Int? = nil, path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(count ?? (1 << 16), 1 << 16))
        var at = offset
        while count.map({ bytes.count < $0 }) ?? true {
            let want = min(chunk.count, (count ?? Int.max) - bytes.count)
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, want, off_t(at)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw DurableFile.failure("read the history file", path) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
            at += n
        }
        return bytes
    }

    /// Decodes the whole lines of `tail` from `tail.from` into `loaded`, up to the first of a save
    /// past `sequence` or a torn line, and moves `loaded`'s end and mark past them.
    private func read(_ tail: inout Tail, into loaded: inout Loaded, committedThrough sequence: Int64, storeIdentifier: String) throws {
        let scan = try Journal.scan(tail.bytes, from: tail.from, base: tail.base, file: path)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        var transactions = loaded.log.transactions
        // `last` is the newest transaction ever recorded (the first line's counter after a
        // deletion, which may name a transaction the file no longer holds); `previous` the one
        // before in the file: each transaction follows `previous` and the horizon.
        var last = loaded.log.lastTransaction, horizon = loaded.log.horizon
        var previous = transactions.last?.token.transaction ?? 0
        var mark = loaded.mark
        for (n, line) in scan.lines.enumerated() {
            let offset = tail.base + line.offset
            func corrupt(_ why: String) -> StrataError {
                StrataError(.corruptStore, "The history file is damaged at byte \(offset) (\(why)); delete the store's history (or restore it from a backup).", file: path, offset: offset)
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
            } else if offset == 0, let l = entry.last, let h = entry.horizon {
                last = l
                horizon = h
            } else {
                throw corrupt("neither a transaction nor the first line's counters")
            }
            let checksum = Array(tail.bytes[line.offset..<(line.offset + 16)])
            mark = Mark(first: offset == 0 ? checksum : mark?.first ?? [], lastStart: offset, last: checksum)
            loaded.end = tail.base + (n + 1 < scan.lines.count ? scan.lines[n + 1].offset : scan.end)
            loaded.needsLineEnd = n + 1 == scan.lines.count && scan.needsLineEnd
        }
        loaded.mark = mark
        loaded.log = HistoryLog(transactions: transactions, lastTransaction: last, horizon: horizon)
    }

    private static func body(_ transaction: StoreHistoryTransaction, sequence: Int64) -> [UInt8] {
        var body = Array("{\"seq\":\(sequence),\"transaction\":".utf8)
        transaction.encode(into: &body)
        body.append(UInt8(ascii: "}"))
        return body
    }

    private static func line(_ transaction: StoreHistoryTransaction, sequence: Int64) throws -> [UInt8] {
        Journal.line(body(transaction, sequence: sequence))
    }

    /// The journal line carrying the transaction of the save that commits as number `sequence`
    /// (JSON and XML): `<checksum> strata-history {"seq": S, "transaction": {…}}`, written with the
    /// save's own line right after it, in the same write and sync. The journal keeps a transaction
    /// until a fold moves it into the history file (`appendMissing`), so a save syncs one file.
    public static func journalLine(_ transaction: StoreHistoryTransaction, sequence: Int64) -> [UInt8] {
        Journal.line(Journal.historyPrefix + body(transaction, sequence: sequence))
    }

    /// A committed transaction read from the journal (`journalLine`), which the history file may
    /// not hold yet.
    public struct Pending: Sendable {
        /// The commit number of its save.
        public var sequence: Int64
        /// The transaction.
        public var transaction: StoreHistoryTransaction
    }

    /// Decodes the journal's history lines (`Journal.Scan.history`; `base`: the file offset of the
    /// bytes scanned), keeping those of saves committed through `sequence`.
    ///
    /// - Throws: `corruptStore` naming the journal and offset for a line that is no transaction of
    ///   this store.
    public static func pending(_ lines: [Journal.Line], base: Int = 0, committedThrough sequence: Int64, journal: String, storeIdentifier: String) throws -> [Pending] {
        guard !lines.isEmpty else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        var pending: [Pending] = []
        for line in lines {
            let offset = base + line.offset
            guard let entry = try? decoder.decode(Line.self, from: Data(line.body)), let seq = entry.seq, let transaction = entry.transaction else {
                throw StrataError.journalDamaged(at: offset, "a history line that holds no transaction", file: journal)
            }
            guard transaction.token.storeIdentifier == storeIdentifier else {
                throw StrataError.journalDamaged(at: offset, "a history transaction of another store, \(transaction.token.storeIdentifier)", file: journal)
            }
            if let previous = pending.last, transaction.token.transaction <= previous.transaction.token.transaction {
                throw StrataError.journalDamaged(at: offset, "history transaction \(transaction.token.transaction) does not follow \(previous.transaction.token.transaction)", file: journal)
            }
            guard seq <= sequence else { break }
            pending.append(Pending(sequence: seq, transaction: transaction))
        }
        return pending
    }

    /// The store's history: the file's (`file`) and after it the journal's transactions it lacks
    /// (numbered above its newest, deleted ones included); and the journal's transactions still
    /// needed (those).
    public static func merged(_ file: HistoryLog, _ pending: [Pending]) -> (log: HistoryLog, pending: [Pending]) {
        guard let first = pending.firstIndex(where: { $0.transaction.token.transaction > file.lastTransaction }) else { return (file, []) }
        let needed = Array(pending[first...])
        var transactions = file.transactions  // appended to in chunks: no copy of the file's history
        for entry in needed { transactions.append(entry.transaction) }
        let log = HistoryLog(transactions: transactions, lastTransaction: file.lastTransaction, horizon: file.horizon)
        return (log, needed)
    }

    /// Appends (and syncs) the transaction of the save that will commit as number `sequence`,
    /// after cutting off anything past `end` (a save that never committed); returns the new end.
    /// Call it with the writer lock held, before the save's commit point.
    ///
    /// - Throws: `ioFailure`, with the file as long as before.
    public func append(_ transaction: StoreHistoryTransaction, sequence: Int64, end: Int, needsLineEnd: Bool) throws -> Int {
        try Journal.append(try Self.line(transaction, sequence: sequence), to: path, end: end, needsLineEnd: needsLineEnd)
    }

    /// Appends (and syncs) the transaction of the save that will commit as number `sequence`
    /// after `loaded`'s end, as `append(_:sequence:end:needsLineEnd:)`; returns `loaded` moved past
    /// it, holding `log` (the saved state's history), to keep once the save has committed.
    ///
    /// - Throws: `ioFailure`, with the file as long as before.
    public func append(_ transaction: StoreHistoryTransaction, sequence: Int64, after loaded: Loaded, log: HistoryLog) throws -> Loaded {
        let line = try Self.line(transaction, sequence: sequence)
        var next = loaded
        next.end = try Journal.append(line, to: path, end: loaded.end, needsLineEnd: loaded.needsLineEnd)
        next.needsLineEnd = false
        next.stamp = FileStamp(path)
        next.log = log
        let start = next.end - line.count, checksum = Array(line.prefix(16))
        if start == 0 {
            next.mark = Mark(first: checksum, lastStart: start, last: checksum)
        } else {
            next.mark = loaded.mark.map { Mark(first: $0.first, lastStart: start, last: checksum) }
        }
        return next
    }

    /// Appends (and syncs) the transactions of `log` that the file `loaded` read lacks — those
    /// numbered above its newest —, as lines of saves committed through `sequence`, in one write;
    /// returns where the file stands (holding `log`). Nothing is written when it lacks none. A JSON
    /// or XML writer calls it before a fold empties the journal that holds them.
    ///
    /// - Throws: `ioFailure`, with the file as long as before.
    public func appendMissing(from log: HistoryLog, sequence: Int64, after loaded: Loaded) throws -> Loaded {
        let missing = log.transactions.drop { $0.token.transaction <= loaded.log.lastTransaction }
        guard !missing.isEmpty else { return loaded }
        var bytes: [UInt8] = [], lastStart = 0
        for transaction in missing {
            lastStart = bytes.count
            bytes += try Self.line(transaction, sequence: sequence)
        }
        var next = loaded
        next.end = try Journal.append(bytes, to: path, end: loaded.end, needsLineEnd: loaded.needsLineEnd)
        next.needsLineEnd = false
        next.stamp = FileStamp(path)
        next.log = log
        let start = next.end - bytes.count + lastStart, checksum = Array(bytes[lastStart..<(lastStart + 16)])
        let first = loaded.end == 0 ? Array(bytes.prefix(16)) : loaded.mark?.first
        next.mark = first.map { Mark(first: $0, lastStart: start, last: checksum) }
        return next
    }

    /// Cuts off (durably) what follows `loaded`'s last committed line: lines of saves that never
    /// committed (an older Strata wrote each line before its commit point) and a torn append. A
    /// JSON or XML writer calls it on opening, under its lock, so that no such line is taken for a
    /// committed one once the store's numbers reach its `seq` (its saves no longer write the file).
    ///
    /// - Returns: `loaded` with the file's new stamp.
    /// - Throws: `ioFailure`.
    public func cutUncommitted(after loaded: Loaded) throws -> Loaded {
        guard let stamp = FileStamp(path), stamp.size > loaded.end else { return loaded }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DurableFile.failure("open the history file", path) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(loaded.end)) == 0, fsync(fd) == 0 else { throw DurableFile.failure("cut the history file's uncommitted lines", path) }
        var next = loaded
        next.stamp = FileStamp(path)
        return next
    }

    /// Replaces the file with `log` (after `deleteHistory`), atomically; returns where it stands.
    ///
    /// - Parameter sequence: the store's committed number (every line written is committed).
    /// - Throws: `ioFailure`, with the old file in place.
    public func rewrite(_ log: HistoryLog, sequence: Int64) throws -> Loaded {
        let first = Journal.line(Array("{\"last\":\(log.lastTransaction),\"horizon\":\(log.horizon)}".utf8))
        var bytes = first
        var lastStart = 0
        for transaction in log.transactions {
            lastStart = bytes.count
            bytes += try Self.line(transaction, sequence: sequence)
        }
        try DurableFile.replace(path, with: bytes)
        var loaded = Loaded()
        loaded.log = log
        loaded.end = bytes.count
        loaded.stamp = FileStamp(path)
        loaded.mark = Mark(first: Array(first.prefix(16)), lastStart: lastStart, last: Array(bytes[lastStart..<(lastStart + 16)]))
        return loaded
    }

    /// Removes the file (a new store created where an old one's history was left behind).
    public func remove() { unlink(path) }
}
