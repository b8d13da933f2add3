import Foundation
@_spi(StrataEngine) import Strata

/// Opens an `LMDBStore`: an environment folder, a schema, and how the map and syncing behave.
///
/// ```swift
/// let store = try LMDBStore(LMDBStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema))
/// ```
public struct LMDBStoreConfiguration: DataStoreConfiguration {
    /// The store type this opens.
    public typealias Store = LMDBStore

    /// How much a commit waits for the disk; liblmdb keeps the environment consistent in every mode
    /// after a process crash, the modes differ after an operating-system crash or power loss.
    public enum Durability: String, Sendable, Hashable, CaseIterable {
        /// Data and metadata pages are flushed on every commit: a returned save survives power loss
        /// (`SaveDurability.powerLoss`). The default.
        case full
        /// Data pages are flushed on every commit, the metadata page at the next one (`MDB_NOMETASYNC`):
        /// after power loss the environment is intact but may have lost the last save
        /// (`SaveDurability.processCrash`, at the price of one flush per commit).
        case noMetaSync
        /// Nothing is flushed on commit (`MDB_NOSYNC`): a process crash loses nothing, but power loss may
        /// lose recent saves or, on file systems that reorder writes, damage the environment — weaker
        /// than either `SaveDurability` level; for caches and stores that can be rebuilt.
        case none

        /// The mode that keeps `level`: `.full` for `.powerLoss`, `.noMetaSync` for `.processCrash`
        /// (the cheapest mode that keeps the environment intact after power loss).
        public init(_ level: SaveDurability) {
            self = level == .powerLoss ? .full : .noMetaSync
        }
    }

    /// The environment folder (created if missing; `data.mdb` and `lock.mdb` live in it).
    public var folder: URL
    /// The schema of the data.
    public var schema: Schema
    /// The map size a new environment starts with, in bytes; it doubles whenever a save needs more.
    public var initialMapSize: Int
    /// The map size never grows beyond this; a save that would need more fails with `ioFailure`.
    public var maximumMapSize: Int
    /// How much a commit waits for the disk.
    public var durability: Durability
    /// Opens the environment with `MDB_RDONLY`: nothing is created or changed (a missing store is an
    /// error), saves fail with `readOnlyStore`, and other processes may write beside it.
    public var isReadOnly: Bool
    /// Whether saves record history (`LMDBStore.fetchHistory`), in the save's write transaction.
    /// Off by default: a store that does not record pays nothing.
    public var recordsHistory = false

    /// Describes an LMDB store.
    public init(folder: URL, schema: Schema, initialMapSize: Int = 64 << 20, maximumMapSize: Int = 1 << 40, durability: Durability = .full, isReadOnly: Bool = false) {
        self.folder = folder
        self.schema = schema
        self.initialMapSize = initialMapSize
        self.maximumMapSize = maximumMapSize
        self.durability = durability
        self.isReadOnly = isReadOnly
    }

    /// The folder path.
    public var name: String { folder.path }

    /// The liblmdb environment flags of a durability (besides `MDB_NOTLS`), for tools that open the
    /// same kind of environment with the C API (the raw baseline of `strata bench`).
    public static func environmentFlags(_ durability: Durability) -> Int32 {
        switch durability {
        case .full: 0
        case .noMetaSync: 0x40000  // MDB_NOMETASYNC
        case .none: 0x10000  // MDB_NOSYNC
        }
    }
}
