import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import Synchronization

/// A failed liblmdb call: its return code and what was being done.
struct LMDBError: Error, CustomStringConvertible {
    let code: Int32
    let operation: String

    var description: String { "\(operation): \(String(cString: mdb_strerror(code))) (\(code))" }

    /// The taxonomy's code for this failure, with the environment's path and the return code kept as
    /// its `native` error.
    func strataError(path: String) -> StrataError {
        mapped(path: path).with(native: .init(.lmdb, code: Int(code), message: String(cString: mdb_strerror(code))))
    }

    private func mapped(path: String) -> StrataError {
        switch code {
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_INVALID, MDB_VERSION_MISMATCH, MDB_BAD_TXN, MDB_PANIC:
            return StrataError(.corruptStore, "The LMDB environment is damaged or not readable (\(description)); restore it from a backup.", file: path)
        case EACCES, EPERM, EROFS:
            return StrataError(.ioFailure, "The LMDB environment cannot be opened for writing (\(description)); check its permissions.", file: path)
        case MDB_READERS_FULL:
            return StrataError(.storeLocked, "Every reader slot of the LMDB environment is taken (\(description)); close other readers.", file: path)
        default:
            return StrataError(.ioFailure, "LMDB failed (\(description)).", file: path)
        }
    }
}

/// Throws `LMDBError` for a non-zero return code.
@inline(__always)
func lmdbCheck(_ rc: Int32, _ operation: @autoclosure () -> String) throws {
    if rc != 0 { throw LMDBError(code: rc, operation: operation()) }
}

/// One opened LMDB environment: pooled read transactions for fetches, serialized write transactions
/// for saves, and map growth.
///
/// Read transactions are made with `MDB_NOTLS`, reset after each fetch and renewed by the next one,
/// so a fetch costs no `mdb_txn_begin`. The last one returned waits in an atomic slot, so a fetch
/// with no other fetch running takes it without a lock (a lock, an array and their exclusivity
/// checks were a visible share of a point lookup; limit: Benchmarks/Thresholds/lmdb-fetch-by-id.txt);
/// the rest wait in a locked pool. The map grows when a save hits `MDB_MAP_FULL`: the write
/// transaction is aborted, the map doubled (up to the ceiling) and the save run again from the start.
/// liblmdb forbids resizing while any transaction of this process is active, so fetches hold a shared
/// lock that only a resize takes exclusively (a resize is rare: fetches otherwise never wait).
final class LMDBEnvironment: @unchecked Sendable {
    let env: OpaquePointer
    let path: String
    /// `data.mdb` in `path`, touched after each commit (`signalCommit`).
    private let dataFile: String
    let maximumMapSize: Int
    private let resize: UnsafeMutablePointer<pthread_rwlock_t>
    /// An idle read transaction (its address; 0 when empty), taken and returned without a lock.
    private let idle = Atomic<UInt>(0)
    private let poolLock = NSLock()
    /// Further idle read transactions, when several fetches ran at once.
    private var pool: [OpaquePointer] = []
    /// Serializes this process's saves and guards `currentMapSize`.
    private let writer = NSLock()
    /// Held by every transaction of this process that opens database handles (`mdb_dbi_open`):
    /// liblmdb requires such a transaction to end before another one opens handles (an open
    /// during a migration's write transaction would make its handles fail with `MDB_BAD_DBI`).
    let catalog = NSLock()
    private var currentMapSize = 0

    /// Opens (creating files if needed) the environment in the folder `path`.
    init(path: String, mapSize: Int, maximumMapSize: Int, maxDatabases: Int, flags: Int32) throws {
        var env: OpaquePointer?
        try lmdbCheck(mdb_env_create(&env), "mdb_env_create")
        guard let env else { throw LMDBError(code: ENOMEM, operation: "mdb_env_create") }
        do {
            try lmdbCheck(mdb_env_set_maxdbs(env, MDB_dbi(maxDatabases)), "mdb_env_set_maxdbs")
            try lmdbCheck(mdb_env_set_maxreaders(env, 256), "mdb_env_set_maxreaders")
            try lmdbCheck(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize")
            try lmdbCheck(mdb_env_open(env, path, UInt32(bitPattern: flags | MDB_NOTLS), 0o644), "mdb_env_open")
        } catch {
            mdb_env_close(env)
            throw error
        }
        self.env = env
        self.path = path
        dataFile = path + "/data.mdb"
        self.maximumMapSize = max(maximumMapSize, mapSize)
        self.resize = .allocate(capacity: 1)
        pthread_rwlock_init(resize, nil)
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        currentMapSize = info.me_mapsize
    }

    deinit {
        if let txn = takeIdle() { mdb_txn_abort(txn) }
        for txn in pool { mdb_txn_abort(txn) }
        mdb_env_close(env)
        pthread_rwlock_destroy(resize)
        resize.deallocate()
    }

    /// The current map size in bytes.
    var mapSize: Int { writer.withLock { currentMapSize } }

    /// Runs `body` in a read transaction that sees the last committed state.
    func read<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        while true {
            pthread_rwlock_rdlock(resize)
            var txn: OpaquePointer? = takeIdle() ?? poolLock.withLock { pool.popLast() }
            var rc: Int32
            if let t = txn {
                rc = mdb_txn_renew(t)
                if rc != 0 { mdb_txn_abort(t); txn = nil }
            } else {
                rc = mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
            }
            guard rc == 0, let txn else {
                pthread_rwlock_unlock(resize)
                if rc == MDB_MAP_RESIZED { adoptGrownMap(); continue }
                throw LMDBError(code: rc, operation: "begin a read transaction")
            }
            defer {
                mdb_txn_reset(txn)
                if !idle.compareExchange(expected: 0, desired: UInt(bitPattern: Int(bitPattern: txn)), ordering: .releasing).exchanged {
                    poolLock.withLock { pool.append(txn) }
                }
                pthread_rwlock_unlock(resize)
            }
            return try body(txn)
        }
    }

    /// Takes the transaction from the idle slot, if one waits there.
    @inline(__always)
    private func takeIdle() -> OpaquePointer? {
        OpaquePointer(bitPattern: Int(bitPattern: idle.exchange(0, ordering: .acquiring)))
    }

    /// Another process grew the map beyond ours: take its size (no transaction may be active).
    private func adoptGrownMap() {
        pthread_rwlock_wrlock(resize)
        defer { pthread_rwlock_unlock(resize) }
        mdb_env_set_mapsize(env, 0)
    }

    /// Runs `body` in a write transaction and commits it; any error aborts it, so nothing changes.
    /// On `MDB_MAP_FULL` the map grows and `body` runs again from the start, in a new transaction.
    ///
    /// - Throws: `body`'s error, or `ioFailure` when the save needs more than `maximumMapSize`.
    func write<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        writer.lock()
        defer { writer.unlock() }
        do {
            while true {
                var txn: OpaquePointer?
                let rc = mdb_txn_begin(env, nil, 0, &txn)
                if rc == MDB_MAP_RESIZED {
                    try setMapSize(0)
                    continue
                }
                try lmdbCheck(rc, "begin a write transaction")
                guard let txn else { throw LMDBError(code: EINVAL, operation: "mdb_txn_begin") }
                do {
                    let result = try body(txn)
                    try lmdbCheck(mdb_txn_commit(txn), "commit")
                    signalCommit()
                    return result
                } catch let error as LMDBError where error.code == MDB_MAP_FULL {
                    // A failed commit has already freed the transaction; an error in `body` has not.
                    if error.operation != "commit" { mdb_txn_abort(txn) }
                    guard currentMapSize < maximumMapSize else {
                        throw StrataError(
                            .ioFailure, "The save needs more than the store's map size ceiling of \(maximumMapSize >> 20) MiB; nothing was saved. Open the store with a larger maximumMapSize.",
                            file: path, native: .init(.lmdb, code: Int(error.code), message: String(cString: mdb_strerror(error.code))))
                    }
                    try setMapSize(min(currentMapSize * 2, maximumMapSize))
                } catch {
                    if (error as? LMDBError)?.operation != "commit" { mdb_txn_abort(txn) }
                    throw error
                }
            }
        }
    }

    /// Touches `data.mdb` after a commit (its modification time: one system call, nothing
    /// written), so a `StoreWatcher` wakes once the commit is visible to readers.
    ///
    /// liblmdb writes a commit's meta page with `pwrite` and only then publishes the new
    /// transaction id in the lock file's shared memory (`mti_txnid`, which is what a read
    /// transaction starts from, and which the kernel reports nothing about). A reader woken by
    /// the meta page's write can begin its read transaction in between and see the old state;
    /// without another event it would then miss the commit until the next one (a `history
    /// follow` worker hung on the last save: its read saw transaction 6 while the meta page
    /// already said 7). This event comes after `mti_txnid` moved.
    private func signalCommit() {
        _ = utimensat(AT_FDCWD, dataFile, nil, 0)
    }

    /// Resizes the map while no transaction of this process is active.
    private func setMapSize(_ size: Int) throws {
        pthread_rwlock_wrlock(resize)
        defer { pthread_rwlock_unlock(resize) }
        // Pooled (reset) read transactions hold no pointer into the map, but drop them anyway.
        if let txn = takeIdle() { mdb_txn_abort(txn) }
        for txn in poolLock.withLock({ () -> [OpaquePointer] in defer { pool.removeAll() }; return pool }) { mdb_txn_abort(txn) }
        try lmdbCheck(mdb_env_set_mapsize(env, size), "mdb_env_set_mapsize")
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        currentMapSize = info.me_mapsize
    }
}
