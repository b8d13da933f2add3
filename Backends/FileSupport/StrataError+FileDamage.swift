@_spi(StrataEngine) import Strata

/// The damage reports the file backends share, written once.
extension StrataError {
    /// A journal line at byte `offset` of `file` that is damaged (`why`).
    @_spi(StrataEngine)
    public static func journalDamaged(at offset: Int, _ why: String, file: String) -> StrataError {
        StrataError(.corruptStore, "The journal is damaged at byte \(offset) (\(why)); restore the store from a backup.", file: file, offset: offset)
    }

    /// A store document of 0 bytes (truncated; never taken for a new store).
    @_spi(StrataEngine)
    public static func emptyStoreFile(_ file: String) -> StrataError {
        StrataError(.corruptStore, "The store file is empty (0 bytes); it was truncated. Restore it from a backup.", file: file, offset: 0)
    }
}
