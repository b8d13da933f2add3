/// A store whose commits — by any process — can wake a reader beside the writer without polling:
/// through the files each commit writes (inotify, `StoreWatcher`), or through whatever else the
/// store offers (`makeWakeSource()`: PostgreSQL's `LISTEN`/`NOTIFY`).
///
/// The built-in persistent backends conform: JSON and XML name their document, journal and history
/// file, CSV its manifest and history, SQLite its database and write-ahead log, LMDB its data file;
/// PostgreSQL listens for the notification each save sends in its transaction. A third-party store
/// conforms by naming the files its commit point writes or renames, or by returning a wake source
/// of its own. A wake-up may be spurious (a file changed without a commit, or a commit of this
/// process): the reader checks what changed (history after its token, a new fetch) and waits again.
///
/// ```swift
/// let source = try store.makeWakeSource()
/// for await _ in source.wakes {
///     try store.lookForCommits()
///     let new = try store.fetchHistory(HistoryQuery(after: seen)) …
/// }
/// ```
public protocol WatchableStore: DataStore {
    /// The paths of the files every commit writes, renames or creates (they need not exist yet;
    /// their folders must). The default names none (a store that wakes readers otherwise).
    var watchedFiles: [String] { get }

    /// A new source of wake-ups after commits to this store, made before the reader's first read.
    /// The default watches `watchedFiles` with inotify (`StoreWatcher`).
    ///
    /// - Throws: `ioFailure` when the files cannot be watched; a server store's error when it
    ///   cannot listen.
    func makeWakeSource() throws -> any StoreWakeSource

    /// Looks for another process's commits now, before the read that follows a wake-up. A store
    /// that answers from memory and looks at its files at most every few milliseconds before a
    /// fetch (`OutsideChangeCheck`) must look now: a commit whose event arrived within that window
    /// would otherwise stay unseen until the next commit. The default does nothing (a store whose
    /// every read sees the latest commit).
    func lookForCommits() throws
}

extension WatchableStore {
    /// No files: the store wakes readers through its own `makeWakeSource()`.
    public var watchedFiles: [String] { [] }

    /// Watches `watchedFiles` with inotify.
    public func makeWakeSource() throws -> any StoreWakeSource { try StoreWatcher(files: watchedFiles) }

    /// Every read of this store sees the latest commit: nothing to do.
    public func lookForCommits() throws {}
}
