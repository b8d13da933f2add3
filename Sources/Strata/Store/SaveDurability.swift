/// What an acknowledged save survives: the promise a configuration chooses, in the words of the
/// store contract (docs/store-contract.md, "Durability").
///
/// Every persistent backend keeps both levels; each backend's configuration says which settings
/// give them (docs/reliability.md has the table and the cost of each). Whatever the level, a save is
/// atomic and the store opens after any crash: the levels differ only in whether the last
/// acknowledged saves can be missing after the operating system stops without writing its caches.
public enum SaveDurability: String, Sendable, Hashable, CaseIterable, Codable {
    /// A returned save survives the process being killed (the operating system keeps writing what
    /// the process wrote); after power loss or an OS crash the store is intact but the last saves
    /// acknowledged before it may be missing.
    case processCrash
    /// A returned save is on stable storage before `save` returns: it survives a process crash,
    /// an OS crash and power loss (as far as the disk honours a flush). The default.
    case powerLoss
}
