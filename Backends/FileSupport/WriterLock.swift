import Foundation
import Strata
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one-writer lock of a file store: an exclusive `flock` on a file or folder that *is* the store.
///
/// There is no separate lock file to delete: a backend locks its data folder (CSV) or the one file
/// it never renames (JSON's journal), so removing the locked object removes the store itself. After
/// taking the lock the path is checked to still name the locked file (it may have been replaced
/// between open and lock); `isStillHeld` lets a store check again before each save. Readers take no
/// lock: the formats let them read a consistent state beside a writer.
///
/// Locks held in this process are also kept in a process-wide table, so a second writer in the same
/// process is refused with a message that says so (`flock` alone cannot tell the two apart).
public final class WriterLock: @unchecked Sendable {
    private struct Identity: Hashable { let device: UInt64, inode: UInt64 }
    private static let heldHere = Mutex<Set<Identity>>([])

    /// The locked path.
    public let path: String
    private let descriptor: Int32
    private let identity: Identity

    /// Takes the lock on `path` (a file opened read-write, or a folder), waiting up to `wait`.
    ///
    /// - Parameter store: the store's path for messages.
    /// - Throws: `storeLocked` saying whether the holder is this process or another one, `ioFailure`
    ///   if `path` cannot be opened.
    public init(path: String, store: String, wait: Duration?) throws {
        self.path = path
        let deadline = ContinuousClock.now + (wait ?? .zero)
        while true {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw DurableFile.failure("open the store to lock it", path) }
            guard let stamp = FileStamp(descriptor: fd) else {
                close(fd)
                throw DurableFile.failure("inspect the store to lock it", path)
            }
            let identity = Identity(device: stamp.device, inode: stamp.inode)
            var holder: String?
            if !Self.heldHere.withLock({ $0.insert(identity).inserted }) {
                holder = "This process already has the store open for writing (another store object); use that object, close it first, or open this one read-only."
            } else if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                _ = Self.heldHere.withLock { $0.remove(identity) }
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    close(fd)
                    throw DurableFile.failure("lock the store", path)
                }
                holder = "Another process has the store open for writing; close it there, open with a lock wait, or open read-only."
            } else if let now = FileStamp(path), now.isSameFile(as: stamp) {
                self.descriptor = fd
                self.identity = identity
                return
            } else {
                // Replaced or removed between open and lock: the lock is on a file that is no longer the store.
                flock(fd, LOCK_UN)
                _ = Self.heldHere.withLock { $0.remove(identity) }
            }
            close(fd)
            if let holder, ContinuousClock.now >= deadline {
                throw StrataError(.storeLocked, holder, file: store)
            }
            usleep(2_000)
        }
    }

    private init(path: String, descriptor: Int32, identity: Identity) {
        self.path = path
        self.descriptor = descriptor
        self.identity = identity
    }

    /// Creates `path` as a new empty file that is locked from the moment it appears, or returns `nil`
    /// if `path` exists already (then take the lock with `init(path:store:wait:)`).
    ///
    /// The file is made under a temporary name (`temporary`, which the caller's clean-up must
    /// cover), locked, then linked to `path`, so no other writer can lock it before the creator has
    /// finished making the store: a second writer never sees a half-created store as its own.
    public static func create(_ path: String, temporary: String) throws -> WriterLock? {
        unlink(temporary)
        let fd = open(temporary, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.failure("create the store's lock target", temporary) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, let stamp = FileStamp(descriptor: fd) else {
            close(fd)
            unlink(temporary)
            throw DurableFile.failure("lock a new file", temporary)
        }
        let identity = Identity(device: stamp.device, inode: stamp.inode)
        _ = heldHere.withLock { $0.insert(identity) }
        let linked = link(temporary, path) == 0
        let linkError = errno
        unlink(temporary)
        guard linked else {
            _ = heldHere.withLock { $0.remove(identity) }
            close(fd)
            errno = linkError
            if linkError == EEXIST { return nil }
            throw DurableFile.failure("create the store's lock target", path)
        }
        DurableFile.syncFolder(of: path)
        return WriterLock(path: path, descriptor: fd, identity: identity)
    }

    /// Whether `path` still names the locked file (someone may have deleted or replaced it).
    public var isStillHeld: Bool {
        guard let now = FileStamp(path) else { return false }
        return now.device == identity.device && now.inode == identity.inode
    }

    /// Throws `storeLocked` if the locked file was deleted or replaced while the store was open:
    /// another writer may then have got in, and saving on would overwrite its work.
    public func check(store: String) throws {
        guard isStillHeld else {
            throw StrataError(.storeLocked, "The store's locked file \(path) was deleted or replaced while this store had it open; another writer may be using the new one. Reopen the store.", file: store)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
        _ = Self.heldHere.withLock { $0.remove(identity) }
    }
}
