import CSQLite
import Foundation

/// A SQLite VFS of Strata's own, over the default one, that keeps a checksum of every page of the
/// main database file in the page's last 8 bytes (SQLite's "reserved bytes") and checks it on
/// every read of a page from the file.
///
/// Why: SQLite checks the structure of what it reads, not the values: a flipped digit or letter,
/// or a page cut short (read as zeros), opens as a store holding other values (docs/reliability.md,
/// "Damage"). A per-row checksum would have to be kept up to date by every statement that changes a
/// row (updates of some columns, nullified links); a page checksum covers every table, index and
/// link list at the one place all of them pass, at the cost of one pass over each page read from
/// or written to the file (pages in SQLite's cache are not checked again).
///
/// - A store made by this code reserves the 8 bytes (`SQLiteFormat.create`) and records
///   `page_checksums` in its metadata, so a header whose reserved-byte count was damaged is refused
///   instead of read unchecked (`SQLiteFormat.checkPageChecksums`). A store made before has no room
///   for them and is read as before.
/// - The checksum mixes in the page's offset, so a page copied over another is caught too, and an
///   all-zero page (a hole, or a page cut off and read back as zeros) never matches.
/// - Only the main database file is checked: the write-ahead log has SQLite's own frame checksums,
///   and its pages get theirs when a checkpoint writes them into the file.
/// - A mismatch is `SQLITE_IOERR_DATA`, which `SQLiteError` maps to `corruptStore`.
enum SQLiteChecksumVFS {
    /// The name passed to `sqlite3_open_v2`.
    static let name = "strata-checksum"
    /// The reserved bytes per page a checksummed store has.
    static let reservedBytes: Int32 = 8

    /// Registers the VFS once per process; `nil` if SQLite refused (then stores open unchecked
    /// through the default VFS, which `checkPageChecksums` refuses for a checksummed store).
    static let registered: String? = register()

    /// Our part of each open file, before the default VFS's own file object.
    private static let header = 16
    /// SQLite's codes as numbers (Swift cannot import macros built from other macros).
    static let ioerrShortRead: Int32 = SQLITE_IOERR | (2 << 8)
    static let ioerrData: Int32 = SQLITE_IOERR | (32 << 8)
    private static let subpageRead: Int32 = 0x8000

    /// `flags` bit: the file's header says it has room for checksums (compute and verify them).
    private static let enabled: Int32 = 1
    /// `flags` bit: opened by `reseal`, which reads pages without checking them.
    private static let unverified: Int32 = 2
    /// The URI parameter that sets `unverified`.
    private static let unverifiedParameter = "strata_unverified"

    /// Rewrites every page of the database at `path` with its checksum: for a store another SQLite
    /// program changed (it cannot keep the checksums), once the change is known to be wanted.
    static func reseal(_ path: String) throws {
        guard let vfs = registered else { return }
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        var db: OpaquePointer?
        var rc = sqlite3_open_v2("file:\(encoded)?\(unverifiedParameter)=1", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, vfs)
        defer { sqlite3_close_v2(db) }
        if rc == SQLITE_OK { rc = sqlite3_exec(db, "VACUUM", nil, nil, nil) }
        guard rc == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            throw SQLiteError(code: rc, message: message, sql: "VACUUM").strataError(file: path)
        }
    }

    private static func sub(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file!) + header).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func flags(_ file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
        UnsafeMutableRawPointer(file!).load(fromByteOffset: 8, as: Int32.self)
    }

    private static func setFlags(_ file: UnsafeMutablePointer<sqlite3_file>?, _ value: Int32) {
        UnsafeMutableRawPointer(file!).storeBytes(of: value, toByteOffset: 8, as: Int32.self)
    }

    /// Notes whether a page-1 image being read or written has room for checksums.
    private static func noteHeader(_ file: UnsafeMutablePointer<sqlite3_file>?, _ buffer: UnsafeRawPointer, _ amount: Int32, _ offset: Int64) {
        guard offset == 0, amount >= 100 else { return }
        let magic = "SQLite format 3\0".utf8
        guard magic.enumerated().allSatisfy({ buffer.load(fromByteOffset: $0.offset, as: UInt8.self) == $0.element }) else { return }
        let room = buffer.load(fromByteOffset: 20, as: UInt8.self) == UInt8(reservedBytes)
        setFlags(file, flags(file) & unverified | (room ? enabled : 0))
    }

    /// Whether `amount` bytes are a whole page (a power of two from 512 up).
    private static func isPage(_ amount: Int32) -> Bool { amount >= 512 && amount & (amount - 1) == 0 }

    /// The checksum of a page: two running sums over its 32-bit words but the last two, seeded with
    /// its offset (a Fletcher-style sum, as SQLite's own WAL checksum).
    static func checksum(_ page: UnsafeRawPointer, count: Int, offset: Int64) -> (UInt32, UInt32) {
        var s1 = 0x5354_5241 ^ UInt32(truncatingIfNeeded: offset >> 9)
        var s2 = 0x9E37_79B9 ^ UInt32(truncatingIfNeeded: offset >> 41)
        let words = page.assumingMemoryBound(to: UInt32.self)
        var i = 0
        let end = (count - 8) / 4
        while i < end {
            s1 &+= words[i] &+ s2
            s2 &+= words[i + 1] &+ s1
            i += 2
        }
        return (s1, s2)
    }

    private static func stored(_ page: UnsafeRawPointer, count: Int) -> (UInt32, UInt32) {
        (page.load(fromByteOffset: count - 8, as: UInt32.self), page.load(fromByteOffset: count - 4, as: UInt32.self))
    }

    private static func register() -> String? {
        guard let base = sqlite3_vfs_find(nil) else { return nil }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: sqlite3_vfs())
        vfs.pointee.iVersion = 2
        vfs.pointee.szOsFile = Int32(header) + base.pointee.szOsFile
        vfs.pointee.mxPathname = base.pointee.mxPathname
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.pAppData = UnsafeMutableRawPointer(base)
        vfs.pointee.xOpen = { vfs, path, file, openFlags, outFlags in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            guard openFlags & SQLITE_OPEN_MAIN_DB != 0 else { return base.pointee.xOpen(base, path, file, openFlags, outFlags) }
            file!.pointee.pMethods = nil
            SQLiteChecksumVFS.setFlags(file, sqlite3_uri_boolean(path, SQLiteChecksumVFS.unverifiedParameter, 0) != 0 ? SQLiteChecksumVFS.unverified : 0)
            let rc = base.pointee.xOpen(base, path, SQLiteChecksumVFS.sub(file), openFlags, outFlags)
            if rc == SQLITE_OK { file!.pointee.pMethods = UnsafePointer(SQLiteChecksumVFS.methods) }
            return rc
        }
        vfs.pointee.xDelete = { vfs, path, sync in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xDelete(base, path, sync)
        }
        vfs.pointee.xAccess = { vfs, path, what, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xAccess(base, path, what, out)
        }
        vfs.pointee.xFullPathname = { vfs, path, size, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xFullPathname(base, path, size, out)
        }
        vfs.pointee.xDlOpen = { vfs, path in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xDlOpen(base, path)
        }
        vfs.pointee.xDlError = { vfs, size, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            base.pointee.xDlError(base, size, out)
        }
        vfs.pointee.xDlSym = { vfs, handle, symbol in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xDlSym(base, handle, symbol)
        }
        vfs.pointee.xDlClose = { vfs, handle in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            base.pointee.xDlClose(base, handle)
        }
        vfs.pointee.xRandomness = { vfs, size, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xRandomness(base, size, out)
        }
        vfs.pointee.xSleep = { vfs, micro in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xSleep(base, micro)
        }
        vfs.pointee.xCurrentTime = { vfs, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xCurrentTime(base, out)
        }
        vfs.pointee.xGetLastError = { vfs, size, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xGetLastError(base, size, out)
        }
        vfs.pointee.xCurrentTimeInt64 = { vfs, out in
            let base = vfs!.pointee.pAppData.assumingMemoryBound(to: sqlite3_vfs.self)
            return base.pointee.xCurrentTimeInt64(base, out)
        }
        guard sqlite3_vfs_register(vfs, 0) == SQLITE_OK else { return nil }
        return name
    }

    /// Calls the method `call` picks of the file beneath `file` (the underlying VFS's), with that file:
    /// the one shape of every method this VFS only forwards.
    @inline(__always)
    private static func forward<T>(_ file: UnsafeMutablePointer<sqlite3_file>?, _ call: (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods) -> T) -> T {
        let s = sub(file)
        return call(s, s.pointee.pMethods.pointee)
    }

    /// The file methods of a main database file: checks on read and write, the rest forwarded.
    nonisolated(unsafe) private static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
        let m = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        m.initialize(to: sqlite3_io_methods())
        m.pointee.iVersion = 3
        m.pointee.xClose = { file in SQLiteChecksumVFS.forward(file) { $1.xClose($0) } }
        m.pointee.xRead = { file, buffer, amount, offset in
            let s = SQLiteChecksumVFS.sub(file)
            let rc = s.pointee.pMethods.pointee.xRead(s, buffer, amount, offset)
            guard rc == SQLITE_OK || rc == SQLiteChecksumVFS.ioerrShortRead, let buffer else { return rc }
            SQLiteChecksumVFS.noteHeader(file, buffer, amount, offset)
            guard SQLiteChecksumVFS.isPage(amount), SQLiteChecksumVFS.flags(file) == SQLiteChecksumVFS.enabled else { return rc }
            // A short read is zero-filled by SQLite: part of the page was cut off the file.
            let count = Int(amount)
            if SQLiteChecksumVFS.checksum(buffer, count: count, offset: offset) != SQLiteChecksumVFS.stored(buffer, count: count) {
                return SQLiteChecksumVFS.ioerrData
            }
            return rc
        }
        m.pointee.xWrite = { file, buffer, amount, offset in
            let s = SQLiteChecksumVFS.sub(file)
            if let buffer {
                SQLiteChecksumVFS.noteHeader(file, buffer, amount, offset)
                if SQLiteChecksumVFS.isPage(amount), SQLiteChecksumVFS.flags(file) & SQLiteChecksumVFS.enabled != 0 {
                    // The reserved bytes belong to the page, and SQLite lets the VFS fill them.
                    let page = UnsafeMutableRawPointer(mutating: buffer)
                    let count = Int(amount)
                    let (s1, s2) = SQLiteChecksumVFS.checksum(page, count: count, offset: offset)
                    page.storeBytes(of: s1, toByteOffset: count - 8, as: UInt32.self)
                    page.storeBytes(of: s2, toByteOffset: count - 4, as: UInt32.self)
                }
            }
            return s.pointee.pMethods.pointee.xWrite(s, buffer, amount, offset)
        }
        m.pointee.xTruncate = { file, size in SQLiteChecksumVFS.forward(file) { $1.xTruncate($0, size) } }
        m.pointee.xSync = { file, flags in SQLiteChecksumVFS.forward(file) { $1.xSync($0, flags) } }
        m.pointee.xFileSize = { file, size in SQLiteChecksumVFS.forward(file) { $1.xFileSize($0, size) } }
        m.pointee.xLock = { file, level in SQLiteChecksumVFS.forward(file) { $1.xLock($0, level) } }
        m.pointee.xUnlock = { file, level in SQLiteChecksumVFS.forward(file) { $1.xUnlock($0, level) } }
        m.pointee.xCheckReservedLock = { file, out in SQLiteChecksumVFS.forward(file) { $1.xCheckReservedLock($0, out) } }
        m.pointee.xFileControl = { file, op, argument in SQLiteChecksumVFS.forward(file) { $1.xFileControl($0, op, argument) } }
        m.pointee.xSectorSize = { file in SQLiteChecksumVFS.forward(file) { $1.xSectorSize($0) } }
        m.pointee.xDeviceCharacteristics = { file in
            let s = SQLiteChecksumVFS.sub(file)
            // Reads of less than a page would skip the check: SQLite then reads whole pages.
            return s.pointee.pMethods.pointee.xDeviceCharacteristics(s) & ~SQLiteChecksumVFS.subpageRead
        }
        m.pointee.xShmMap = { file, region, size, extend, out in SQLiteChecksumVFS.forward(file) { $1.xShmMap($0, region, size, extend, out) } }
        m.pointee.xShmLock = { file, offset, count, flags in SQLiteChecksumVFS.forward(file) { $1.xShmLock($0, offset, count, flags) } }
        m.pointee.xShmBarrier = { file in
            let s = SQLiteChecksumVFS.sub(file)
            s.pointee.pMethods.pointee.xShmBarrier(s)
        }
        m.pointee.xShmUnmap = { file, delete in SQLiteChecksumVFS.forward(file) { $1.xShmUnmap($0, delete) } }
        // Memory-mapped pages would bypass the check: refused, so SQLite reads them with xRead.
        m.pointee.xFetch = { _, _, _, out in
            out?.pointee = nil
            return SQLITE_OK
        }
        m.pointee.xUnfetch = { _, _, _ in SQLITE_OK }
        return m
    }()
}
