/// Something that wakes a reader after commits to a store by any process: inotify on the store's
/// files (`StoreWatcher`), or a server's notifications (the PostgreSQL backend's `LISTEN`). A
/// `WatchableStore` makes one per live sequence (`WatchableStore.makeWakeSource()`).
///
/// `wakes` yields at least once after every commit made after the source was made (several
/// commits may share one wake-up, and spurious wake-ups are allowed): a reader makes the source
/// before its first read, then after each wake-up looks for what changed and waits again.
public protocol StoreWakeSource: AnyObject, Sendable {
    /// One element per burst of commits; finishes when the source is closed.
    var wakes: AsyncStream<Void> { get }
    /// Stops waking: `wakes` finishes. Closing twice does nothing.
    func close()
}

extension StoreWatcher: StoreWakeSource {}
