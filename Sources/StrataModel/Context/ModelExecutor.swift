import Dispatch

/// An executor that runs a model actor's work, with the `ModelContext` that work uses
/// (SwiftData's `ModelExecutor`).
///
/// A `ModelActor` runs on its `modelExecutor`, so its code and its context are on one executor.
public protocol ModelExecutor: Executor {
    /// The context of the work this executor runs; use it only from that work.
    var modelContext: ModelContext { get }
}

/// A `ModelExecutor` that runs one job at a time, as an actor's executor must (SwiftData's
/// `SerialModelExecutor`).
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// The executor `@ModelActor` gives an actor: its jobs run one at a time, in the order they were
/// enqueued, on a dispatch queue of its own, with the context it was made with (SwiftData's
/// `DefaultSerialModelExecutor`).
///
/// Write one yourself when you conform to `ModelActor` by hand:
/// `modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))`.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    /// The context the actor's code uses. Only that code touches it, one job at a time, which is
    /// why the executor may be shared although the context is not `Sendable`.
    public let modelContext: ModelContext
    private let queue = DispatchQueue(label: "StrataModel.DefaultSerialModelExecutor")

    /// Makes an executor whose jobs use `modelContext`.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    /// Runs `job` on the executor's queue after every job enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
