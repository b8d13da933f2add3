import Foundation
import Strata
import StrataConformance
import StrataCSV
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataPostgres
import StrataSQLite
import StrataXML

/// The built-in backends: the one list every tool, example and cross-backend test reads.
///
/// A new built-in backend is one entry in `all` (plus the places docs/writing-a-backend.md's checklist
/// names: its targets in Package.swift, its raw-engine baseline, the Makefile's lists, its format page);
/// `BuiltinListTests` fails when one of those places misses a backend of this list.
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
    /// An in-process store named after the folder; destroying it forgets the store and removes the
    /// folder (which the store never writes into, but a caller may have made).
    public static let memory = StoreFactory<MemoryStore> { dir, schema in MemoryStoreConfiguration(name: dir.path, schema: schema) } destroy: { dir in
        MemoryStore.destroy(name: dir.path)
        try? FileManager.default.removeItem(at: dir)
    }

    /// A PostgreSQL store: one namespace per folder (its path hashed) on the server
    /// `STRATA_POSTGRES_URL` names, else the one libpq's `PG*` variables name; or the namespace a
    /// `postgresql://…#namespace` URL names (`PostgresServer.configuration`). Destroying it drops
    /// the namespace.
    public static let postgres = StoreFactory<PostgresStore> { location, schema in
        PostgresServer.configuration(location, schema: schema)
    } destroy: { location in
        try? PostgresStore.dropStore(PostgresServer.configuration(location, schema: PostgresServer.emptySchema))
        if location.isFileURL { try? FileManager.default.removeItem(at: location) }
    }

    /// The built-in backends on a database server, apart from `all` (the embedded ones every tool,
    /// example and cross-backend test runs on without setup): they need a running server, and the
    /// raw-engine baselines, callgrind limits and file fuzzing of `all` do not apply to them.
    /// `named(_:)` and the tools' `--backend` find them (docs/formats/postgres.md, "The tools").
    public static let servers: [BuiltinStore] = [
        BuiltinStore(
            "postgres", "Real tables on a PostgreSQL server that several processes and machines share: native constraints, queries in SQL (libpq).",
            storage: .init(description: "one PostgreSQL schema (namespace) of real tables on a server", tools: ["psql", "pg_dump", "any PostgreSQL client"], humanReadable: false, onDisk: false),
            place: { "the PostgreSQL schema \(PostgresServer.configuration($0, schema: PostgresServer.emptySchema).namespace) on the server" },
            factory: postgres),
    ]

    /// Every built-in backend, in the order `strata backends` lists them.
    public static let all: [BuiltinStore] = [
        BuiltinStore(
            "sqlite", "The embedded default: one SQLite file with real tables, native constraints and queries in SQL (libsqlite3).",
            storage: .init(description: "one SQLite 3 database file (store.sqlite), real tables", tools: ["sqlite3", "any SQLite browser", "Python sqlite3"], humanReadable: false),
            appendOnly: { $0.hasSuffix("-wal") }, wholeStore: { $0 == "store.sqlite" }, factory: sqlite),
        BuiltinStore(
            "lmdb", "B-trees in one LMDB environment: records by key, unique, index and to-many databases, MVCC readers (liblmdb).",
            storage: .init(description: "an LMDB environment (data.mdb, lock.mdb)", tools: ["mdb_dump", "mdb_stat", "py-lmdb"], humanReadable: false),
            wholeStore: { $0 == "store/data.mdb" }, factory: lmdb),
        BuiltinStore(
            "json", "A readable JSON document plus an append-only journal, crash-safe, on the shared engine.",
            storage: .init(description: "a JSON document plus a journal of JSON lines", tools: ["a text editor", "jq", "python3 -m json.tool", "diff"], humanReadable: true),
            appendOnly: { $0.hasSuffix(".journal") }, factory: json),
        BuiltinStore(
            "csv", "A folder of CSV tables a spreadsheet opens, committed atomically through a manifest.",
            storage: .init(description: "a folder of RFC 4180 CSV tables and a JSON manifest", tools: ["a spreadsheet", "Python csv", "a text editor", "diff"], humanReadable: true),
            factory: csv),
        BuiltinStore(
            "xml", "A well-formed XML document, valid against its schema, plus a journal, crash-safe, read with libxml2's SAX2 parser.",
            storage: .init(description: "an XML document (schema docs/formats/strata-xml.xsd) plus a journal of XML entries", tools: ["xmllint", "a text editor", "diff"], humanReadable: true),
            appendOnly: { $0.hasSuffix(".journal") }, factory: xml),
        BuiltinStore(
            "memory", "In-memory reference backend on the shared engine; data lives as long as the process.",
            storage: .init(description: "none: the data lives in the process", tools: [], humanReadable: false, onDisk: false),
            factory: memory),
    ]

    /// `all` with the memory backend, the reference the others are compared with, first.
    public static var referenceFirst: [BuiltinStore] { all.filter { $0.name == "memory" } + all.filter { $0.name != "memory" } }

    /// `referenceFirst`, then the server backends when a server is named (`STRATA_POSTGRES_URL`,
    /// which `make test` exports): what the cross-backend and model tests run on.
    public static var referenceFirstWithServers: [BuiltinStore] { referenceFirst + (PostgresServer.url == nil ? [] : servers) }

    /// The built-in backend called `name` (embedded or on a server), if there is one.
    public static func named(_ name: String) -> BuiltinStore? { (all + servers).first { $0.name == name } }
}

/// One built-in backend: its name, what it is, how its store looks on disk, and the factory of its stores.
public struct BuiltinStore: Sendable, CustomStringConvertible {
    /// The name `--backend` takes (`sqlite`, `memory`, …).
    public let name: String
    /// One sentence on what the backend is.
    public let summary: String
    /// The store's files and the tools that open them (from the backend's page in docs/formats/).
    public let storage: BackendReport.StorageFormat
    /// Whether the format checksums everything it stores, so that `strata fuzz` counts a silently
    /// wrong open as a failure (every built-in format does now: SQLite its pages, LMDB its records).
    public let detectsAllDamage: Bool
    /// The files (relative to the store's folder) the backend only appends to, where a cut at the
    /// end is what a crash leaves (`strata fuzz`).
    public let isAppendOnly: @Sendable (_ file: String) -> Bool
    /// The file (relative to the store's folder) that holds the whole store, the others holding no
    /// data (`strata fuzz` counts a stale copy of it apart: a consistent older store).
    public let holdsWholeStore: @Sendable (_ file: String) -> Bool
    /// The factory of its stores, its store type kept: pass it to a generic function
    /// (`func f<F: BuiltinStoreFactory>(_ factory: F)`) to get a typed `StoreFactory`.
    public let factory: any BuiltinStoreFactory
    /// Where the store a location names lives, in the words its own tools use: the folder's path,
    /// or for a server backend the namespace on the server (what `psql` needs).
    public let place: @Sendable (_ location: URL) -> String

    /// Whether its stores live in files (the memory backend's do not outlive the process).
    public var isPersistentOnDisk: Bool { storage.onDisk }
    /// The name.
    public var description: String { name }

    init<Store: DataStore>(
        _ name: String, _ summary: String, storage: BackendReport.StorageFormat, detectsAllDamage: Bool = true,
        appendOnly: @escaping @Sendable (String) -> Bool = { _ in false }, wholeStore: @escaping @Sendable (String) -> Bool = { _ in false },
        place: @escaping @Sendable (URL) -> String = { $0.path }, factory: StoreFactory<Store>
    ) {
        self.name = name
        self.summary = summary
        self.storage = storage
        self.detectsAllDamage = detectsAllDamage
        self.isAppendOnly = appendOnly
        self.holdsWholeStore = wholeStore
        self.place = place
        self.factory = factory
    }
}

/// A store factory whose store type a generic function can recover from `BuiltinStore.factory`.
public protocol BuiltinStoreFactory: Sendable {
    /// The backend's store type.
    associatedtype Store: DataStore
    /// The typed factory.
    var stores: StoreFactory<Store> { get }
}

extension StoreFactory: BuiltinStoreFactory {
    /// The factory itself.
    public var stores: StoreFactory<Store> { self }
}
