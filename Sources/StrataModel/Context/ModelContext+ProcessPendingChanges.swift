extension ModelContext {
    /// SwiftData's `processPendingChanges()`: tells the undo manager to record the changes made to
    /// the context's registered models.
    ///
    /// Strata has no undo manager (Foundation's `UndoManager` is not supported on Linux) and
    /// records each change as it is made, so there is nothing to coalesce: the call changes
    /// nothing — it neither saves nor drops pending changes.
    public func processPendingChanges() {}
}
