import Foundation
import Synchronization

/// A migration on a thread of its own that stops inside its stage until released, so that a test
/// starts another opener once the migration is observed inside it, never after a delay.
///
/// ```swift
/// let migration = PausedMigration { pause in
///     try Store.migrateStore(new, from: v1, to: v2) { state in pause(); return try state.migrated(by: plan) }
/// }
/// // … another opener, while the migration waits inside its stage …
/// migration.release()
/// #expect(migration.finish() == nil)
/// ```
public final class PausedMigration: Sendable {
    private let inside = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
    private let failure = Mutex<(any Error)?>(nil)

    /// Starts `migrate` on its own thread and returns once it calls its argument, `pause`, which
    /// blocks it until `release()` (or once it ends, if it fails before pausing).
    public init(_ migrate: @escaping @Sendable (_ pause: @escaping @Sendable () -> Void) throws -> Void) {
        let thread = Thread { [self] in
            do {
                try migrate { [self] in
                    inside.signal()
                    go.wait()
                }
            } catch {
                failure.withLock { $0 = error }
            }
            inside.signal()  // a migration that failed before its pause does not leave `init` waiting
            ended.signal()
        }
        thread.start()
        inside.wait()
    }

    /// Lets the migration go on past its pause.
    public func release() { go.signal() }

    /// Waits for the migration's thread to end; what it threw, `nil` if it completed.
    public func finish() -> (any Error)? {
        ended.wait()
        return failure.withLock { $0 }
    }
}
