import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Wakes a reader when a store's files change: inotify on the folders holding them, filtered to
/// their names, on a thread of its own that sleeps in `poll` until the kernel reports an event.
///
/// `wakes` yields once per burst of events (events that arrive before the reader looks again are
/// merged into one wake-up), so a reader that checks the store after each wake-up never misses a
/// commit: a commit after its check produces a new event and a new wake-up. No timer, no polling of
/// the data. Make the watcher before the first read, so no commit falls between the two.
///
/// ```swift
/// let watcher = try StoreWatcher(files: store.watchedFiles)
/// var seen = try store.fetchHistory(HistoryQuery()).last?.token
/// for await _ in watcher.wakes {
///     for t in try store.fetchHistory(HistoryQuery(after: seen)) { print(t); seen = t.token }
/// }
/// ```
public final class StoreWatcher: Sendable {
    /// One element per burst of changes to the watched files; finishes when the watcher is closed
    /// (or deinitialized).
    public let wakes: AsyncStream<Void>
    private let inotify: Int32
    /// The write end of the pipe that wakes the thread to stop.
    private let stop: Int32
    private let closed = Atomic<Bool>(false)

    /// Watches `files` (paths; the files may not exist yet, their folders must).
    ///
    /// - Throws: `ioFailure` when inotify is unavailable or a folder cannot be watched.
    public init(files: [String]) throws {
        var folders: [String: Set<String>] = [:]
        for path in files {
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            folders[folder, default: []].insert(name)
        }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw StrataError(.ioFailure, "Cannot watch the store's files: inotify_init1 failed (errno \(errno)).") }
        var names: [Int32: Set<String>] = [:]
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)
        for (folder, files) in folders {
            let wd = inotify_add_watch(fd, folder, mask)
            guard wd >= 0 else {
                let code = errno
                Glibc.close(fd)
                throw StrataError(.ioFailure, "Cannot watch the folder '\(folder)' for changes (errno \(code)).", file: folder)
            }
            names[wd, default: []].formUnion(files)
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            Glibc.close(fd)
            throw StrataError(.ioFailure, "Cannot watch the store's files: pipe failed (errno \(errno)).")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        inotify = fd
        self.stop = ends[1]
        let stop = ends[0]
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakes = stream
        let watched = names
        let thread = Thread { Self.run(inotify: fd, stop: stop, names: watched, continuation) }
        thread.name = "strata-store-watcher"
        thread.start()
    }

    /// The thread's loop: sleep in `poll` until events or `close` (which writes to the pipe whose
    /// read end is `stop`), yield once per burst.
    private static func run(inotify: Int32, stop: Int32, names: [Int32: Set<String>], _ continuation: AsyncStream<Void>.Continuation) {
        defer {
            continuation.finish()
            Glibc.close(inotify)
            Glibc.close(stop)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            var relevant = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                buffer.withUnsafeBytes { raw in
                    var offset = 0
                    while offset + MemoryLayout<inotify_event>.size <= n {
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let length = Int(event.len)
                        if length > 0, let files = names[event.wd] {
                            let bytes = raw[nameStart..<(nameStart + length)].prefix { $0 != 0 }
                            if files.contains(String(decoding: bytes, as: UTF8.self)) { relevant = true }
                        }
                        offset = nameStart + length
                    }
                }
            }
            if relevant { continuation.yield(()) }
        }
    }

    /// Stops watching: `wakes` finishes. Called by `deinit` too.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt8 = 1
        _ = Glibc.write(stop, &one, 1)
        Glibc.close(stop)
    }

    deinit { close() }
}
