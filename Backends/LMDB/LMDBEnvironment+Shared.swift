import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import Synchronization

/// One environment per folder per process: liblmdb forbids opening an environment twice in one
/// process (closing the second copy's lock file would drop the locks the first one holds, and
/// another process could then reset the reader table under it). Stores opened on the same folder
/// in this process — two containers on one store, say — share the one that is open (issue 25).
extension LMDBEnvironment {
    private final class Entry {
        weak var environment: LMDBEnvironment?
        let isReadOnly: Bool
        init(_ environment: LMDBEnvironment, isReadOnly: Bool) {
            self.environment = environment
            self.isReadOnly = isReadOnly
        }
    }

    private static let open = Mutex<[String: Entry]>([:])

    /// The environment this process has open on `path`, or a new one.
    ///
    /// The first opener's map size and durability flags stay in force for every store sharing it.
    ///
    /// - Throws: `storeLocked` when this process has the folder open read-only and a writer asks
    ///   for it (one environment per process cannot be both); liblmdb's errors on open.
    static func shared(path: String, mapSize: Int, maximumMapSize: Int, maxDatabases: Int, flags: Int32) throws -> LMDBEnvironment {
        let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        let readOnly = flags & MDB_RDONLY != 0
        return try open.withLock { table in
            if let entry = table[key], let environment = entry.environment {
                guard !entry.isReadOnly || readOnly else {
                    throw StrataError(.storeLocked, "This process has the LMDB store open read-only, and LMDB allows one environment per folder per process; release the read-only store before opening it for writing.", file: path)
                }
                return environment
            }
            let environment = try LMDBEnvironment(path: path, mapSize: mapSize, maximumMapSize: maximumMapSize, maxDatabases: maxDatabases, flags: flags)
            table[key] = Entry(environment, isReadOnly: readOnly)
            return environment
        }
    }
}
