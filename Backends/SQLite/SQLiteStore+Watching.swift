import Foundation
#if canImport(Glibc)
import Glibc
#endif
@_spi(StrataEngine) import Strata

/// In WAL mode every commit writes the write-ahead log (and a checkpoint the database file): a
/// watcher on the two names wakes on every commit of any process. SQLite makes a commit visible
/// to readers only after its last write (it then updates the WAL index, a shared memory map the
/// kernel reports nothing for), so a reader woken by that write may still read the old state: a
/// Strata writer touches the log after each commit (`signalCommit`), one more event that comes
/// after the commit is visible.
extension SQLiteStore: WatchableStore {
    /// The database file and its write-ahead log.
    public var watchedFiles: [String] {
        let path = configuration.url.path
        return [path, path + "-wal"]
    }
}

extension SQLiteStore {
    /// Touches the write-ahead log after a commit (its modification time), so a watcher wakes
    /// once the commit is visible. One system call; nothing is written.
    func signalCommit() {
        _ = utimensat(AT_FDCWD, walPath, nil, 0)
    }
}
