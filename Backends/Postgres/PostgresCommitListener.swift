import CLibPQ
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Strata
import Synchronization

/// Wakes a reader when a PostgreSQL store commits: a connection of its own that `LISTEN`s on the
/// store's channel, and a thread that sleeps in `poll` on its socket until the server sends a
/// notification (every save sends one in its transaction: `PostgresStore.commitChannel`).
///
/// `wakes` yields once per burst of notifications. If the server drops the connection the listener
/// wakes the reader once (commits may have happened while it was not listening) and connects again,
/// trying once a second until the server is back or the listener is closed.
final class PostgresCommitListener: StoreWakeSource {
    let wakes: AsyncStream<Void>
    /// The write end of the pipe that wakes the thread to stop.
    private let stop: Int32
    private let closed = Atomic<Bool>(false)

    /// The listening connection, handed to the thread (used by it alone once it runs).
    private final class Listening: @unchecked Sendable {
        var connection: PostgresConnection

        init(_ connection: PostgresConnection) { self.connection = connection }
    }

    /// Connects and listens on `channel`, before returning (so a commit made after this is seen).
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached; `unsupported` on a hot
    ///   standby (it runs no `LISTEN`).
    init(settings: PostgresConnectionSettings, channel: String, store: String) throws {
        let connection = try Self.listen(settings: settings, channel: channel, store: store)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw StrataError(.ioFailure, "Cannot listen for the store's commits: pipe failed (errno \(errno)).", file: store)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.stop = ends[1]
        let stop = ends[0]
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakes = stream
        let listening = Listening(connection)
        let thread = Thread { Self.run(listening, stop: stop, settings: settings, channel: channel, store: store, continuation) }
        thread.name = "strata-postgres-listener"
        thread.start()
    }

    /// A new connection listening on `channel`.
    private static func listen(settings: PostgresConnectionSettings, channel: String, store: String) throws -> PostgresConnection {
        let connection = try PostgresConnection(settings: settings)
        do {
            try connection.execute("LISTEN \(PostgresCatalog.quote(channel))")
        } catch let error as PostgresError {
            if error.sqlstate == "25006" || error.message.contains("recovery") {
                throw StrataError(.unsupported, "A PostgreSQL hot standby delivers no notifications, so no live sequence can follow a store on it (\(error.message)); follow it on the primary.", file: store).with(native: error.native)
            }
            throw error.strataError(store: store)
        }
        return connection
    }

    /// The thread's loop: sleep in `poll` until the socket is readable or `close` writes to the
    /// pipe whose read end is `stop`; yield once per burst of notifications.
    private static func run(_ listening: Listening, stop: Int32, settings: PostgresConnectionSettings, channel: String, store: String, _ continuation: AsyncStream<Void>.Continuation) {
        defer {
            continuation.finish()
            Glibc.close(stop)
        }
        while true {
            let handle = listening.connection.handle
            var fds = [pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            var notified = false
            if PQconsumeInput(handle) == 1 {
                while let notification = PQnotifies(handle) {
                    notified = true
                    PQfreemem(notification)
                }
            } else {
                // The connection is gone: wake the reader (it looks again), then listen anew.
                continuation.yield(())
                while true {
                    if let connection = try? listen(settings: settings, channel: channel, store: store) {
                        listening.connection = connection
                        notified = true
                        break
                    }
                    var wait = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
                    if poll(&wait, 1, 1_000) != 0 { return }
                }
            }
            if notified { continuation.yield(()) }
        }
    }

    /// Stops listening: `wakes` finishes and the connection closes. Called by `deinit` too.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt8 = 1
        _ = Glibc.write(stop, &one, 1)
        Glibc.close(stop)
    }

    deinit { close() }
}
