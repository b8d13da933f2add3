/// When a file store that answers from memory looks at its files again for another process's
/// changes.
///
/// Looking costs a `stat` per file. Before a save a store always looks (a save must build on the
/// latest committed state); before a fetch at most once per ``window``, so a tight loop of
/// fetches does not pay a system call each. One rule for every file backend keeps JSON, XML and
/// CSV equally fresh, and their format documents can quote one figure.
public struct OutsideChangeCheck: Sendable {
    /// How stale a fetch may be about a change another process committed.
    public static let window = Duration.milliseconds(5)

    /// When the files were last looked at (or loaded).
    private var lastLook = ContinuousClock.now

    /// Starts the window now: the files were just loaded.
    public init() {}

    /// Whether to look at the files now, and if so, records the look.
    ///
    /// - Parameter always: `true` before a save, which must see every committed change.
    public mutating func isDue(always: Bool) -> Bool {
        let now = ContinuousClock.now
        guard always || now - lastLook >= Self.window else { return false }
        lastLook = now
        return true
    }
}
