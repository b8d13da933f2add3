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

    /// Looks for another process's commits now, before the read that follows a wake-up. A store
    /// that answers from memory and looks at its files at most every few milliseconds before a
    /// fetch (`OutsideChangeCheck`) must look now: a commit whose event arrived within that window
    /// would otherwise stay unseen until the next commit. The default does nothing (a store whose
    /// every read sees the latest commit).
    func lookForCommits() throws
}

extension WatchableStore {
    /// Every read of this store sees the latest commit: nothing to do.
    public func lookForCommits() throws {}
}
