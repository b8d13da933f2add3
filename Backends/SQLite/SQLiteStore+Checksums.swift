import Foundation
@_spi(StrataEngine) import Strata

extension SQLiteStore {
    /// Accepts changes another SQLite program made to the store at `url`: rewrites every page with
    /// its checksum (`VACUUM` with the checks off while reading).
    ///
    /// A store's pages carry checksums (docs/formats/sqlite.md, "Page checksums"); a program that
    /// writes the file without Strata (the `sqlite3` shell, a database browser) leaves the pages it
    /// changed without theirs, and the next open refuses the store with `corruptStore`, as it
    /// refuses damage. Call this only for a change you made on purpose: it seals damage just the same.
    /// The store must not be open anywhere.
    ///
    /// - Throws: `ioFailure` or `corruptStore` when SQLite cannot rewrite the file.
    public static func resealPages(at url: URL) throws {
        try SQLiteChecksumVFS.reseal(url.path)
    }
}
