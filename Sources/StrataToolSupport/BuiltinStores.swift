import Foundation
import Strata
import StrataConformance
import StrataCSV
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataSQLite
import StrataXML

/// The built-in backends' store factories, each keeping one store in a folder: what the `strata` tool
/// and its sibling `strata-model-bench` open, defined once so both measure the very same stores.
public enum BuiltinStores {
    /// One SQLite file, `store.sqlite`.
    public static let sqlite = StoreFactory<SQLiteStore> { dir, schema in SQLiteStoreConfiguration(url: dir.appendingPathComponent("store.sqlite"), schema: schema) }
    /// One LMDB environment in the folder `store`.
    public static let lmdb = StoreFactory<LMDBStore> { dir, schema in LMDBStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema) }
    /// `store.json` and its journal.
    public static let json = StoreFactory<JSONStore> { dir, schema in JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5)) }
    /// The CSV tables in the folder `store`.
    public static let csv = StoreFactory<CSVStore> { dir, schema in CSVStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema, lockWait: .seconds(5)) }
    /// `store.xml` and its journal.
    public static let xml = StoreFactory<XMLStore> { dir, schema in XMLStoreConfiguration(url: dir.appendingPathComponent("store.xml"), schema: schema, lockWait: .seconds(5)) }
    /// An in-process store named after the folder; destroying it forgets the store.
    public static let memory = StoreFactory<MemoryStore> { dir, schema in MemoryStoreConfiguration(name: dir.path, schema: schema) } destroy: { MemoryStore.destroy(name: $0.path) }
}
