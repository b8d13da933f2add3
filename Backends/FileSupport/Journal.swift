import Foundation
@_spi(StrataEngine) import Strata
#if canImport(Glibc)
import Glibc
#endif

/// An append-only file of checksummed lines, one per save: `<16 hex digits> <body>\n`.
///
/// A save appends its line and syncs it before returning, so a crash can only tear the last line,
/// and a torn line is a save that never returned. `scan` tells the two apart from damage:
/// - a line that ends with `\n` is whole: a checksum mismatch there is damage (`corruptStore`);
/// - the bytes after the last `\n` are a torn save, *unless* they hold a whole line whose line end
///   is missing (a write cut before its last byte: kept, and `append` adds the line end) or damaged
///   (one byte past a whole line: `corruptStore`).
///
/// Reading never repairs: the torn bytes stay until a writer's next `append`, which first cuts the
/// file back to the end of its last good line, so a new line never follows a fragment.
///
/// A journal made by this version starts with a header line, `<checksum> strata-journal <store
/// identifier>`, written and synced before the journal appears and never removed (a fold cuts the
/// journal back to it): an empty journal is then damage, not a store without saves (`Scan.header`).
///
/// A save that records history writes `<checksum> strata-history <history line>` just before its
/// own line, in the same write and sync (`HistoryFile`): `scan` keeps those apart (`Scan.history`)
/// from the format's lines, and counts history lines after the last save line as part of the torn
/// tail (their save never committed).
public enum Journal {
    /// One whole line: where it starts and its body (without checksum and line end).
    public struct Line: Sendable {
        /// The byte offset of the line in the file.
        public let offset: Int
        /// The line's body.
        public let body: ArraySlice<UInt8>
    }

    /// What `scan` found.
    public struct Scan: Sendable {
        /// The whole lines, in order.
        public var lines: [Line] = []
        /// The offset just after the last whole line: what a writer keeps.
        public var end = 0
        /// Whether the last whole line lacks its `\n` (the writer adds it before appending).
        public var needsLineEnd = false
        /// Bytes after `end` that are a torn, never-acknowledged save.
        public var tornBytes = 0
        /// The store identifier the header line names, or `nil` for a journal without one (made
        /// before headers, or damaged: its document says which).
        public var header: String?
        /// The offset just after the header line (`0` without one): what a fold keeps.
        public var headerEnd = 0
        /// The history lines, each followed by a save line (bodies without their prefix).
        public var history: [Line] = []
        /// History lines not followed by a save line yet.
        fileprivate var trailingHistory: [Line] = []
        /// An empty journal.
        public init() {}
    }

    /// The line recording `body`.
    public static func line(_ body: [UInt8]) -> [UInt8] {
        Array((Checksum.hex(body) + " ").utf8) + body + [0x0A]
    }

    fileprivate static let headerPrefix = Array("strata-journal ".utf8)

    /// What starts the body of a history line.
    public static let historyPrefix = Array("strata-history ".utf8)

    /// The header line of the journal of the store `identifier`.
    public static func header(store identifier: String) -> [UInt8] {
        line(headerPrefix + Array(identifier.utf8))
    }

    private static func whole(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard line.count > 17, line[line.startIndex + 16] == 0x20 else { return nil }
        let body = line[(line.startIndex + 17)...]
        return Checksum.hex(body).utf8.elementsEqual(line.prefix(16)) ? body : nil
    }

    /// Splits a journal into whole lines and a torn tail; see the type's rules.
    ///
    /// - Parameters:
    ///   - first: where in `bytes` to start (a line's start: the lines before it were read
    ///     already); offsets in the scan are indices of `bytes`.
    ///   - base: the file offset of `bytes[0]`, for the offset an error names.
    /// - Throws: `corruptStore` with the line's byte offset for a damaged line.
    public static func scan(_ bytes: [UInt8], from first: Int = 0, base: Int = 0, file: String) throws -> Scan {
        var scan = try scanLines(bytes, from: first, base: base, file: file)
        if let torn = scan.trailingHistory.first {
            // Written in one piece with the save line after it: without that line, a save that never committed.
            scan.end = torn.offset
            scan.needsLineEnd = false
            scan.tornBytes = bytes.count - scan.end
            scan.trailingHistory = []
        }
        return scan
    }

    private static func scanLines(_ bytes: [UInt8], from first: Int, base: Int, file: String) throws -> Scan {
        var scan = Scan()
        var start = first
        scan.end = first
        func corrupt(_ why: String) -> StrataError {
            StrataError.journalDamaged(at: base + start, why, file: file)
        }
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                let tail = bytes[start...]
                if let body = whole(tail) {
                    // Written with its line end and synced before the journal appears: cut, it is damage.
                    guard base + start > 0 || !body.starts(with: headerPrefix) else { throw corrupt("a header line without its line end") }
                    scan.add(Line(offset: start, body: body))
                    scan.end = bytes.count
                    scan.needsLineEnd = true
                } else if whole(tail.dropLast()) != nil {
                    throw corrupt("a whole line whose line end is damaged")
                } else {
                    scan.tornBytes = tail.count
                }
                return scan
            }
            guard let body = whole(bytes[start..<end]) else {
                throw corrupt(bytes[start..<end].count > 17 ? "a checksum mismatch" : "a line without its checksum")
            }
            scan.add(Line(offset: start, body: body))
            start = end + 1
            scan.end = start
        }
        return scan
    }

    /// Appends `line` at `scan`'s end, first cutting off a torn tail (and adding a missing line end),
    /// and syncs it; returns the new end. Call it only while holding the writer lock.
    ///
    /// - Throws: `ioFailure`, leaving the file as long as before (a partial line is cut off again);
    ///   `corruptStore` if the file became shorter than `end` underneath the store.
    public static func append(_ line: [UInt8], to path: String, end: Int, needsLineEnd: Bool) throws -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.failure("open the journal", path) }
        defer { close(fd) }
        guard let stamp = FileStamp(descriptor: fd) else { throw DurableFile.failure("inspect the journal", path) }
        guard stamp.size >= end else {
            throw StrataError(.corruptStore, "The journal became shorter (\(stamp.size) bytes, \(end) expected) while the store was open; reopen it.", file: path)
        }
        if stamp.size > end {
            // A torn tail from a killed writer: the save it was never returned; cut it off durably first.
            guard ftruncate(fd, off_t(end)) == 0, fsync(fd) == 0 else { throw DurableFile.failure("cut the journal's torn tail", path) }
        }
        let bytes = needsLineEnd ? [0x0A] + line : line
        guard DurableFile.writeAll(fd, bytes, at: end), fsync(fd) == 0 else {
            let error = DurableFile.failure("append to the journal", path)
            _ = ftruncate(fd, off_t(end))
            throw error
        }
        if end == 0 { try DurableFile.syncFolder(of: path) }
        return end + bytes.count
    }

    /// Empties the journal durably back to its header (`keeping`: `Scan.headerEnd`), after its
    /// lines were folded into a document.
    public static func truncate(_ path: String, keeping headerEnd: Int = 0) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DurableFile.failure("empty the journal", path) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(headerEnd)) == 0, fsync(fd) == 0 else { throw DurableFile.failure("empty the journal", path) }
    }

    /// Writes the header line of a new journal at `path` (the creation's locked temporary file,
    /// not yet linked into place) and syncs it, so that the journal never appears without it.
    public static func writeHeader(store identifier: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DurableFile.failure("open the new journal", path) }
        defer { close(fd) }
        guard DurableFile.writeAll(fd, header(store: identifier), at: 0), fsync(fd) == 0 else {
            throw DurableFile.failure("write the journal's header", path)
        }
    }
}

extension Journal.Scan {
    /// Records a whole line: the header if it is the first line and names a store, else a save.
    fileprivate mutating func add(_ line: Journal.Line) {
        if line.offset == 0, line.body.starts(with: Journal.headerPrefix) {
            header = String(decoding: line.body.dropFirst(Journal.headerPrefix.count), as: UTF8.self)
            headerEnd = 16 + 1 + line.body.count + 1  // checksum, space, body, line end
        } else if line.body.starts(with: Journal.historyPrefix) {
            trailingHistory.append(Journal.Line(offset: line.offset, body: line.body.dropFirst(Journal.historyPrefix.count)))
        } else {
            history += trailingHistory
            trailingHistory = []
            lines.append(line)
        }
    }
}
