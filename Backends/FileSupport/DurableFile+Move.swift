import Foundation
import Strata

#if canImport(Glibc)
import Glibc
#endif

extension DurableFile {
    /// Moves the file or folder `from` to `to`, never replacing anything at `to`, and syncs the
    /// folder of `to` so the new name survives power loss (`strata convert` and
    /// `ModelContainer.copyStore` publish a finished store with it).
    ///
    /// A file is linked under the new name (`link(2)` refuses an existing name) and then unlinked
    /// from the old one; a folder is renamed (`rename(2)` refuses a folder that holds anything, and
    /// the check before it refuses any other existing name).
    ///
    /// - Throws: `ioFailure` naming `to` when something exists there or the move fails.
    public static func moveWithoutReplacing(_ from: String, to: String) throws {
        guard !FileManager.default.fileExists(atPath: to) else {
            throw StrataError(.ioFailure, "\(to) exists already; nothing was moved there.", file: to)
        }
        var status = stat()
        guard lstat(from, &status) == 0 else { throw failure("find what to move to \(to)", from) }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            guard rename(from, to) == 0 else { throw failure("move a folder to it", to) }
        } else {
            guard link(from, to) == 0 else { throw failure("move a file to it", to) }
            unlink(from)
        }
        try syncFolder(of: to)
    }
}
