/// An actor that does model work off the caller's actor, with its own `ModelContext` (SwiftData's
/// `ModelActor`).
///
/// Write `@ModelActor actor Importer { … }`: the macro adds `modelContainer`, `modelExecutor` (a
/// `DefaultSerialModelExecutor` with a fresh context) and `init(modelContainer:)`; or conform by
/// hand with the same two properties. The actor runs on its executor, and `modelContext` is the
/// executor's. Objects stay on the actor; pass `PersistentIdentifier`s in and out.
public protocol ModelActor: Actor {
    /// The container the actor's context works on.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor the actor runs on, holding its context. Use `modelContext` for the context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's own context: its executor's.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The actor's executor: `modelExecutor`, which must be serial (every `SerialModelExecutor`,
    /// `DefaultSerialModelExecutor` included, is), so the actor's code runs where its context is used.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialExecutor else {
            preconditionFailure("\(Self.self).modelExecutor is not a SerialExecutor: an actor runs one job at a time, so its model executor must too (use DefaultSerialModelExecutor)")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The object of `id` as `T`: the one this actor's context has registered, else the stored
    /// record read into it; `nil` when there is none or it is not a `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as type: T.Type) -> T? {
        try? modelContext.model(for: id, as: type)
    }
}
