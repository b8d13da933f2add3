import Foundation
import Strata
#if canImport(Glibc)
import Glibc
#endif

/// The store's files and the durable operations on them: an advisory lock, synced appends, and
/// atomic replacement (temporary file, sync, rename, sync the folder).
final class JSONFiles: @unchecked Sendable {
    let document: URL
    let journal: URL
    let lockFile: URL
    private var lockDescriptor: Int32 = -1

    init(document: URL) {
        self.document = document
        self.journal = URL(fileURLWithPath: document.path + ".journal")
        self.lockFile = URL(fileURLWithPath: document.path + ".lock")
    }

    deinit { unlock() }

    /// Takes the exclusive advisory lock; with `wait`, retries until it is free or the time is up.
    func lock(wait: Duration?) throws {
        let fd = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StrataError(.ioFailure, "Cannot open the lock file (\(String(cString: strerror(errno)))).", file: lockFile.path) }
        let deadline = ContinuousClock.now + (wait ?? .zero)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(fd)
                throw StrataError(.storeLocked, "Another process has this store open for writing; close it there, or open with a lock wait.", file: document.path)
            }
            usleep(5_000)
        }
        lockDescriptor = fd
    }

    func unlock() {
        if lockDescriptor >= 0 {
            flock(lockDescriptor, LOCK_UN)
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }

    /// Identity and size of a file, to notice changes made by someone else.
    struct Stamp: Equatable {
        let inode: UInt64
        let size: Int64
        let modified: Int64
    }

    func stamp(_ url: URL) -> Stamp? {
        var s = stat()
        guard stat(url.path, &s) == 0 else { return nil }
        return Stamp(inode: UInt64(s.st_ino), size: Int64(s.st_size), modified: Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec))
    }

    private func fail(_ what: String, _ url: URL) -> StrataError {
        StrataError(.ioFailure, "Cannot \(what) (\(String(cString: strerror(errno)))); the store is unchanged.", file: url.path)
    }

    /// Replaces `url` with `bytes` so that a crash at any moment leaves the old or the new file.
    func replace(_ url: URL, with bytes: [UInt8]) throws {
        let temporary = URL(fileURLWithPath: url.path + ".tmp-\(getpid())")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("create a temporary file", temporary) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            guard n > 0 else {
                close(fd)
                unlink(temporary.path)
                throw fail("write the store file", temporary)
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            close(fd)
            unlink(temporary.path)
            throw fail("sync the store file", temporary)
        }
        close(fd)
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw fail("replace the store file", url)
        }
        syncFolder(of: url)
    }

    /// Appends `bytes` to `url` and syncs them before returning.
    func append(_ url: URL, _ bytes: [UInt8]) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("open the journal", url) }
        defer { close(fd) }
        let before = lseek(fd, 0, SEEK_END)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            guard n > 0 else {
                ftruncate(fd, before)  // leave no partial line behind
                throw fail("append to the journal", url)
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            ftruncate(fd, before)
            throw fail("sync the journal", url)
        }
        if before == 0 { syncFolder(of: url) }
    }

    /// Empties `url` durably (after its content was folded into the document).
    func truncate(_ url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("empty the journal", url) }
        fsync(fd)
        close(fd)
    }

    private func syncFolder(of url: URL) {
        let fd = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
