import Dispatch

/// Runs `body`, which blocks for a long time (processes, servers, waiting on their output), on a
/// thread of its own instead of one of Swift's cooperative pool, which has as many threads as the
/// machine has cores and which the other suites' async tests (and their time limits) need
/// meanwhile. The task stays the same, so `#expect` still reports to the running test.
func onOwnThread<T>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(OwnThreadExecutor()) { try body() }
}

/// A task executor on a private serial dispatch queue: its jobs run on a thread of their own,
/// never on the cooperative pool.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "strata.postgres-tests.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
