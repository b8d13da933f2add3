/// The error for a store written in a newer format than this Strata reads, written once for every backend.
extension StrataError {
    /// The error for a store whose format version `found` is above `readable`, the newest this
    /// Strata reads; the store is refused before anything in it is changed. `file` names its file,
    /// folder or namespace.
    public static func newerFormat(_ found: some BinaryInteger, readsUpTo readable: some BinaryInteger, file: String?) -> StrataError {
        StrataError(.unsupported, "The store was written by a newer Strata (format \(found), this one reads up to \(readable)); it was left untouched. Upgrade Strata.", file: file)
    }
}
