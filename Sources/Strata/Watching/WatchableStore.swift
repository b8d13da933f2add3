/// A store whose commits — by any process — change files it can name, so a reader beside the
/// writer can be woken by the operating system (`StoreWatcher`, inotify) instead of polling.
///
/// The built-in persistent backends conform: JSON and XML name their document, journal and history
/// file, CSV its manifest and history, SQLite its database and write-ahead log, LMDB its data file.
/// A third-party store conforms by naming the files its commit point writes or renames. A wake-up
/// may be spurious (a file changed without a commit, or a commit of this process): the reader
/// checks what changed (history after its token, a new fetch) and waits again.
///
/// ```swift
/// let watcher = try StoreWatcher(files: store.watchedFiles)
/// for await _ in watcher.wakes { let new = try store.fetchHistory(HistoryQuery(after: seen)) … }
/// ```
public protocol WatchableStore: DataStore {
    /// The paths of the files every commit writes, renames or creates (they need not exist yet;
    /// their folders must).
    var watchedFiles: [String] { get }
}
