import Foundation
@_spi(StrataEngine) import Strata

/// Every commit renames a new manifest in (and `deleteHistory` rewrites the history file): a
/// watcher on the two names wakes on every commit of any process.
extension CSVStore: WatchableStore {
    /// The manifest and the history file.
    public var watchedFiles: [String] {
        let folder = configuration.folder.path
        return [folder + "/manifest.json", folder + "/history.journal"]
    }

    /// Reloads the files now if another process changed them (a fetch looks at most every 5 ms).
    public func lookForCommits() throws { try refreshIfChanged(always: true) }
}
