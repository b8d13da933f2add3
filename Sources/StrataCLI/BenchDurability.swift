import ArgumentParser
import Strata
import StrataLMDB
import StrataSQLite

/// The durability levels `strata bench --durability` runs a built-in backend at, and the setting of
/// each backend's configuration that gives a level (docs/reliability.md has the table).
///
/// SQLite and LMDB offer both levels; JSON, CSV and XML sync every save, so they have only
/// `powerLoss` (which also survives a process crash); the memory backend keeps nothing past its
/// process and has no level.
enum BenchDurability {
    /// The levels `backend` can run at, its default first; empty for the memory backend.
    static func levels(of backend: String) -> [SaveDurability] {
        switch backend {
        case "sqlite", "lmdb": [.powerLoss, .processCrash]
        case "memory": []
        default: [.powerLoss]
        }
    }

    /// `configuration` set to `durability` (unchanged for a backend with one level).
    static func set<Configuration: DataStoreConfiguration>(_ durability: SaveDurability, on configuration: Configuration) -> Configuration {
        if var sqlite = configuration as? SQLiteStoreConfiguration {
            sqlite.durability = durability
            return sqlite as! Configuration
        }
        if var lmdb = configuration as? LMDBStoreConfiguration {
            lmdb.durability = Self.lmdb(durability)
            return lmdb as! Configuration
        }
        return configuration
    }

    /// LMDB's setting for a level: every page flushed (`full`), or the metadata page one commit late
    /// (`noMetaSync`: intact after power loss, the last save possibly missing).
    static func lmdb(_ durability: SaveDurability) -> LMDBStoreConfiguration.Durability {
        durability == .powerLoss ? .full : .noMetaSync
    }
}

extension SaveDurability: ExpressibleByArgument {}
