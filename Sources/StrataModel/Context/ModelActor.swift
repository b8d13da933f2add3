/// An actor that does model work off the caller's actor, with its own `ModelContext`.
///
/// Write `@ModelActor actor Importer { … }`: the macro adds the container, the context and
/// `init(modelContainer:)`. Objects stay on the actor; pass `PersistentIdentifier`s in and out.
public protocol ModelActor: Actor {
    /// The container the actor's context works on.
    nonisolated var modelContainer: ModelContainer { get }
    /// The actor's own context.
    var modelContext: ModelContext { get }
}

extension ModelActor {
    /// The registered or stored object of `identifier` in this actor's context.
    public func model<T: PersistentModel>(for identifier: PersistentIdentifier, as type: T.Type = T.self) throws -> T {
        try modelContext.model(for: identifier, as: type)
    }
}
