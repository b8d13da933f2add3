import Foundation
@_spi(StrataEngine) import Strata
#if canImport(Glibc)
import Glibc
#endif

/// The durable file operations every file backend needs, done once and right.
///
/// A replaced file is written to `<name>.tmp-<pid>`, synced, renamed over the old one and its folder
/// synced, so a crash at any moment leaves the old or the new file. Temporary files a killed writer
/// left are removed only by `removeTemporaries`, which a backend calls inside a save (holding the
/// writer lock), never on open: reading a store never writes.
public enum DurableFile {
    /// The `ioFailure` for a failed system call, its `errno` kept as the `native` error.
    static func failure(_ what: String, _ path: String) -> StrataError {
        let code = errno
        let message = String(cString: strerror(code))
        return StrataError(.ioFailure, "Cannot \(what) (\(message)); the store is unchanged.", file: path, native: .init(.errno, code: Int(code), message: message))
    }

    /// The name of the temporary file `replace` writes before renaming it over `path`.
    public static func temporaryPath(for path: String) -> String { path + ".tmp-\(getpid())" }

    /// The whole content of `path`, or `nil` if it does not exist.
    ///
    /// - Throws: `ioFailure` if it exists but cannot be read.
    public static func read(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("read the file", path)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(fd, &info) == 0 { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw failure("read the file", path) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int? = nil) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                offset.map { pwrite(fd, buffer.baseAddress! + written, bytes.count - written, off_t($0 + written)) }
                    ?? Glibc.write(fd, buffer.baseAddress! + written, bytes.count - written)
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }

    /// Writes `bytes` as the new file `path` (replacing any file of that name) and syncs it; for
    /// files no committed state names yet, such as the next generation of a table.
    public static func write(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create a file", path) }
        defer { close(fd) }
        guard writeAll(fd, bytes) else { throw failure("write a file", path) }
        guard fsync(fd) == 0 else { throw failure("sync a file", path) }
    }

    /// Replaces `path` with `bytes` so that a crash at any moment leaves the old or the new file.
    ///
    /// - Throws: `ioFailure`; the old file is then untouched and no temporary file is left — except
    ///   when the rename was done but the folder could not be synced: the new file is in place then,
    ///   but power loss could still bring back the old one, so the caller must not report it durable.
    public static func replace(_ path: String, with bytes: [UInt8]) throws {
        let temporary = temporaryPath(for: path)
        do {
            try write(temporary, bytes)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("replace the file", path)
            unlink(temporary)
            throw error
        }
        try syncFolder(of: path)
    }

    /// Syncs the folder holding `path`, so that a rename or a new file in it is durable.
    ///
    /// - Throws: `ioFailure` when the folder cannot be opened or synced: a rename or new file in it
    ///   may not survive power loss.
    public static func syncFolder(of path: String) throws {
        try syncFolder((path as NSString).deletingLastPathComponent)
    }

    /// Syncs the folder `folder` itself.
    ///
    /// - Throws: `ioFailure` when the folder cannot be opened or synced.
    public static func syncFolder(_ folder: String) throws {
        let path = folder.isEmpty ? "." : folder
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open the folder to sync it", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw StrataError(.ioFailure, "Cannot sync the folder (\(String(cString: strerror(errno)))): a file renamed or created in it may not survive power loss.", file: path, native: .init(.errno, code: Int(errno), message: String(cString: strerror(errno))))
        }
    }

    /// Creates the folder `path` and any missing parents, and syncs the folder holding each one it
    /// created, so that a new store's folder survives power loss (`mkdir` alone is not durable until
    /// its parent is synced). Does nothing for a folder that exists.
    ///
    /// - Throws: `ioFailure` when a folder cannot be created or synced.
    public static func createFolder(_ path: String) throws {
        var missing: [String] = []
        var folder = path
        while !folder.isEmpty, folder != "/", FileStamp(folder) == nil {
            missing.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        for created in missing.reversed() {
            guard mkdir(created, 0o755) == 0 || errno == EEXIST else { throw failure("create the folder", created) }
            try syncFolder(of: created)
        }
    }

    /// Removes the temporary files a killed writer left beside `path` (`<name>.tmp-<anything>`).
    ///
    /// Call it only while holding the store's writer lock, inside a save: then no other process is
    /// writing one. Returns how many were removed.
    @discardableResult
    public static func removeTemporaries(of path: String) -> Int {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        var removed = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [] where name.hasPrefix(prefix) {
            if unlink((folder as NSString).appendingPathComponent(name)) == 0 { removed += 1 }
        }
        return removed
    }
}
