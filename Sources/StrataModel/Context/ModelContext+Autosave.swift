extension ModelContext {
    // Autosave without a run loop. SwiftData saves an autosaving context "after you make changes"
    // and at moments of the app's life cycle (scenes, sheets) that a server does not have; its timer
    // is undocumented. Strata's moments are fixed, so a program and a test know when a save happens:
    //
    // 1. Before every read of the store through the context (`fetch`, `fetchCount`,
    //    `fetchIdentifiers`, `enumerate`): what the context changed is saved before it reads, for
    //    every context with `autosaveEnabled` on.
    // 2. The main context also saves on the main actor once the code that made the change has
    //    finished: the first change after a save queues one main-actor task, which saves every
    //    change made until it runs (at the caller's next suspension point, or when the main actor's
    //    current job ends). Other contexts have no executor Strata may schedule on, so only (1)
    //    applies to them.
    //
    // An autosave that fails leaves the changes pending, exactly as a failed `save()` does: the
    // next explicit `save()` runs the same save and throws its error. Nothing is lost and nothing
    // is thrown where the caller did not ask for a save.

    /// Saves pending changes before a read, when autosave is on (moment 1).
    func autosaveBeforeReading() {
        guard autosaveEnabled, hasChanges else { return }
        try? save()
    }

    /// Queues the main context's autosave after a change (moment 2).
    func queueAutosave() {
        guard autosaveEnabled, isMainContext, !autosaveQueued else { return }
        autosaveQueued = true
        let target = AutosaveTarget(self)
        Task { @MainActor in target.run() }
    }
}

/// The main context, handed to the main-actor task that autosaves it. The main context is used on
/// the main actor only (it is reached through `@MainActor ModelContainer.mainContext`), which is
/// where the task runs, so handing it over is safe; the reference is weak, as a queued autosave
/// must not keep a context alive.
private final class AutosaveTarget: @unchecked Sendable {
    weak var context: ModelContext?
    init(_ context: ModelContext) { self.context = context }

    func run() {
        guard let context else { return }
        context.autosaveQueued = false
        guard context.autosaveEnabled, context.hasChanges else { return }
        try? context.save()
    }
}
