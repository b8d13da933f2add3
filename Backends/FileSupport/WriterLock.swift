import Foundation
@_spi(StrataEngine) import Strata
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
/// Writers in this process share the lock: a second store object on the same file (a second
/// container on one store, a test that opens v1 and then v2 of an app) takes a share of the
/// process's `flock` instead of being refused, since `flock` cannot tell two store objects of one
/// process apart anyway. The shares take turns through `exclusively`, and `savesHere` counts their
/// saves so each store object reloads what another one saved before it reads (see
/// docs/formats/json.md, "Locking"). The `flock` is released with the last share; another process
/// is still refused while any share is held.
public final class WriterLock: @unchecked Sendable {
    private struct Identity: Hashable { let device: UInt64, inode: UInt64 }
    /// The `flock` of one file held by this process, shared by every `WriterLock` on it.
    private final class Held: @unchecked Sendable {
        let descriptor: Int32
        var shares = 1
        let turn = NSLock()
        let saves = Atomic<Int>(0)
        init(descriptor: Int32) { self.descriptor = descriptor }
    }
    private static let heldHere = Mutex<[Identity: Held]>([:])

    /// The locked path.
    public let path: String
    private let identity: Identity
    private let held: Held

    /// Takes the lock on `path` (a file opened read-write, or a folder), waiting up to `wait` for
    /// another process to release it; shares it if this process holds it already.
    ///
    /// - Parameter store: the store's path for messages.
    /// - Throws: `storeLocked` when another process holds it, `ioFailure` if `path` cannot be opened.
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
            // Shared or newly taken under the table's lock, so two threads of this process never
            // race for the `flock` and take each other for another process.
            let outcome: (held: Held?, error: Int32) = Self.heldHere.withLock { table in
                if let held = table[identity] {
                    held.shares += 1
                    return (held, 0)
                }
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return (nil, errno) }
                let held = Held(descriptor: fd)
                table[identity] = held
                return (held, 0)
            }
            if let held = outcome.held {
                if held.descriptor != fd { close(fd) }
                if let now = FileStamp(path), now.isSameFile(as: stamp) {
                    self.identity = identity
                    self.held = held
                    return
                }
                // Replaced or removed between open and lock: the lock is on a file that is no longer the store.
                Self.release(identity)
            } else {
                close(fd)
                guard outcome.error == EWOULDBLOCK || outcome.error == EINTR else {
                    errno = outcome.error
                    throw DurableFile.failure("lock the store", path)
                }
                if ContinuousClock.now >= deadline {
                    throw StrataError(.storeLocked, "Another process has the store open for writing; close it there, open with a lock wait, or open read-only.", file: store)
                }
            }
            usleep(2_000)
        }
    }

    private init(path: String, identity: Identity, held: Held) {
        self.path = path
        self.identity = identity
        self.held = held
    }

    /// Gives up one share of the lock; the last one unlocks the file.
    private static func release(_ identity: Identity) {
        heldHere.withLock { table in
            guard let held = table[identity] else { return }
            held.shares -= 1
            guard held.shares == 0 else { return }
            table[identity] = nil
            flock(held.descriptor, LOCK_UN)
            close(held.descriptor)
        }
    }

    /// Runs a save's `body` while no other store object of this process that shares the lock runs
    /// one, and counts it in `savesHere` (first, so the others reload even if it fails halfway).
    public func exclusively<R>(_ body: () throws -> R) rethrows -> R {
        held.turn.lock()
        defer { held.turn.unlock() }
        held.saves.add(1, ordering: .sequentiallyConsistent)
        return try body()
    }

    /// How many saves the store objects of this process sharing the lock have begun: a store that
    /// sees it move since its own last look reloads its files before it reads.
    public var savesHere: Int { held.saves.load(ordering: .sequentiallyConsistent) }

    /// Creates `path` as a new empty file that is locked from the moment it appears, or returns `nil`
    /// if `path` exists already (then take the lock with `init(path:store:wait:)`).
    ///
    /// The file is made under a temporary name (`temporary`, which the caller's clean-up must
    /// cover), locked, then linked to `path`, so no other writer can lock it before the creator has
    /// finished making the store: a second writer never sees a half-created store as its own.
    ///
    /// `beforeLinking` runs once the temporary file is locked and before it is linked: a new store
    /// writes its first files there, so that the lock target appears only beside a whole store.
    public static func create(_ path: String, temporary: String, beforeLinking: () throws -> Void = {}) throws -> WriterLock? {
        unlink(temporary)
        let fd = open(temporary, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.failure("create the store's lock target", temporary) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, let stamp = FileStamp(descriptor: fd) else {
            close(fd)
            unlink(temporary)
            throw DurableFile.failure("lock a new file", temporary)
        }
        let identity = Identity(device: stamp.device, inode: stamp.inode)
        let held = Held(descriptor: fd)
        heldHere.withLock { $0[identity] = held }
        do {
            try beforeLinking()
        } catch {
            release(identity)
            unlink(temporary)
            throw error
        }
        let linked = link(temporary, path) == 0
        let linkError = errno
        unlink(temporary)
        guard linked else {
            release(identity)
            errno = linkError
            if linkError == EEXIST { return nil }
            throw DurableFile.failure("create the store's lock target", path)
        }
        do {
            try DurableFile.syncFolder(of: path)
        } catch {
            unlink(path)  // still ours alone: no other writer could lock it; the store stays uncreated
            release(identity)
            throw error
        }
        return WriterLock(path: path, identity: identity, held: held)
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
        Self.release(identity)
    }
}
