import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// A save appends to the journal (and to the history file when it records), a fold renames a new
/// document in: a watcher on the three names wakes on every commit of any process.
extension JSONStore: WatchableStore {
    /// The document, its journal and its history file.
    public var watchedFiles: [String] {
        let path = configuration.url.path
        return [path, path + ".journal", path + ".history"]
    }

    /// Reloads the files now if another process changed them (a fetch looks at most every 5 ms).
    public func lookForCommits() throws { try document.lookForCommits() }
}
