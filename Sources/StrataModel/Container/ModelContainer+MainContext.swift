extension ModelContainer {
    /// The context bound to the main actor, as SwiftData's: the same object every time, with
    /// `autosaveEnabled` on.
    ///
    /// Made on first use. The container keeps it (and it keeps the container), so a container whose
    /// main context was used stays open for the life of the process, as an app's container does; a
    /// program that opens and closes stores uses `ModelContext(container)` instead.
    @MainActor public var mainContext: ModelContext {
        if let context = mainContextStorage { return context }
        let context = ModelContext(self)
        context.autosaveEnabled = true
        context.isMainContext = true
        mainContextStorage = context
        return context
    }
}
