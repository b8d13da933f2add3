import Foundation
@_spi(StrataEngine) import Strata

/// liblmdb (without `MDB_WRITEMAP`) writes a commit's pages and meta page into `data.mdb` with
/// `pwrite`: a watcher on it wakes on every commit of any process.
extension LMDBStore: WatchableStore {
    /// The environment's data file.
    public var watchedFiles: [String] { [configuration.folder.appendingPathComponent("data.mdb").path] }
}
