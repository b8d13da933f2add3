import ArgumentParser
import Foundation
import Strata
import StrataConformance
import StrataBuiltinBackends
import StrataToolSupport

/// A backend the `strata` tool knows by name, with everything the commands do to it erased to closures.
///
/// `all` is `BuiltinStores.all` (the one list of built-in backends) made into closures, each with its
/// raw-engine baseline from `baselines`.
struct BuiltinBackend: Sendable {
    let name: String
    let summary: String
    /// Whether its stores live in files (the memory backend's do not outlive the process).
    let isPersistentOnDisk: Bool
    /// Where the store a location names lives (`BuiltinStore.place`): a path, or a server's namespace.
    let place: @Sendable (_ location: URL) -> String
    let capabilities: @Sendable () throws -> StoreCapabilities
    let conformance: @Sendable () -> [ConformanceResult]
    /// The standard workload at a durability level (one of `BenchDurability.levels(of:)`), its
    /// stores recording history or not (what recording costs).
    let bench: @Sendable (_ records: Int, _ bracket: StandardWorkload.StepBracket?, _ durability: SaveDurability, _ recordsHistory: Bool) throws -> WorkloadReport
    let sample: @Sendable (_ directory: URL) throws -> Int
    let dump: @Sendable (_ directory: URL) throws -> String
    /// The schema the store in `directory` records (`strata schema`), `nil` when there is none.
    let recordedSchema: @Sendable (_ directory: URL) throws -> RecordedSchema?
    /// Saves generation after generation into a store until killed (for crash tests); every
    /// `largeEvery`-th is a large save (0: none).
    let generations: @Sendable (_ directory: URL, _ count: Int, _ largeEvery: Int) throws -> Void
    /// Writes the version-1 store of `strata torture --migration` (`MigrationWorkload`).
    let migrationTemplate: @Sendable (_ directory: URL, _ records: Int) throws -> Void
    /// Migrates that store to version 3, calling `inside` inside the custom stage's atomic step
    /// and reporting each version reached (the killed writer).
    let migrate: @Sendable (_ directory: URL, _ inside: () -> Void, _ reached: (Int) -> Void) throws -> Void
    /// Adds an attribute with a default to that version-1 store (timed) and removes it again (`strata
    /// migration-bench`): the store is at version 1 afterwards.
    let addAttribute: @Sendable (_ directory: URL) throws -> Duration
    /// Whether the workload's v2 → v3 is a custom stage on this backend (`MigrationWorkload`).
    let migrationHasCustomStage: Bool
    /// Removes the store "in" a directory (for a server backend, its namespace on the server).
    let destroy: @Sendable (_ directory: URL) -> Void
    /// Checks that store after a kill and returns the version it holds.
    let migrationCheck: @Sendable (_ directory: URL, _ records: Int) throws -> Int
    /// Reopens a crash-workload store and returns its generation (`strata torture`).
    let crashCheck: @Sendable (_ directory: URL, _ largeEvery: Int) throws -> Int
    /// Reopens a crash-workload store as the application would after a restart (writable, so a
    /// store may recover, e.g. SQLite replaying its log) and returns its generation (`strata powerloss`).
    let powerLossCheck: @Sendable (_ directory: URL, _ largeEvery: Int) throws -> Int
    /// Writes one generation of the damage fuzzer's sample store (`strata fuzz`).
    let damageSample: @Sendable (_ directory: URL, _ generation: Int) throws -> Void
    /// Whether the format checksums everything it stores, so that `strata fuzz` counts a silently
    /// wrong open as a failure (every built-in one: SQLite checksums its pages, LMDB its records).
    let detectsAllDamage: Bool
    /// The files (relative to the store's folder) the backend only appends to, where a cut at the
    /// end is what a crash leaves (`strata fuzz`).
    let isAppendOnly: @Sendable (_ file: String) -> Bool
    /// The file that holds the whole store (`strata fuzz` counts its stale copy apart).
    let holdsWholeStore: @Sendable (_ file: String) -> Bool
    /// The backend as a participant of differential runs (`strata difftest`) at a durability level
    /// (one of `BenchDurability.levels(of:)`; a backend with one level, or none, ignores it).
    let differential: @Sendable (_ durability: SaveDurability) -> DifferentialBackend
    /// The same workload on the raw engine underneath, when there is one, at the backend's durability;
    /// `step` names the one step to run inside `strata_measure` (for callgrind), if any.
    var baseline: (@Sendable (_ records: Int, _ step: String?, _ durability: SaveDurability) throws -> [String: WorkloadReport.Figure])? = nil

    /// The tool's view of one entry of `BuiltinStores.all`, its store type recovered from the entry's factory.
    static func make(_ entry: BuiltinStore) -> BuiltinBackend {
        make(entry, factory: entry.factory)
    }

    private static func make<Factory: BuiltinStoreFactory>(_ entry: BuiltinStore, factory builtin: Factory) -> BuiltinBackend {
        typealias Store = Factory.Store
        let factory = builtin.stores
        let name = entry.name
        /// Opening to read (dumps, checks after a kill) uses the read-only mode: reading never writes.
        @Sendable func readOnly(_ dir: URL) -> Store.Configuration {
            var configuration = factory.configuration(dir, FixtureDomain.schema)
            configuration.isReadOnly = true
            return configuration
        }
        return BuiltinBackend(
            name: name, summary: entry.summary, isPersistentOnDisk: entry.isPersistentOnDisk, place: entry.place,
            capabilities: {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-caps-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                defer { factory.destroy(dir) }
                return try Store(factory.configuration(dir, FixtureDomain.schema)).capabilities
            },
            conformance: { ConformanceSuite.run(on: factory) },
            bench: { records, bracket, durability, recordsHistory in
                let level = BenchDurability.levels(of: name).contains(durability) ? durability : nil
                let leveled = StoreFactory<Store>(
                    configuration: { dir, schema in
                        var configuration = factory.configuration(dir, schema)
                        if level != nil { configuration = BenchDurability.set(durability, on: configuration) }
                        configuration.recordsHistory = recordsHistory
                        return configuration
                    }, destroy: factory.destroy)
                var report = try StandardWorkload.run(name, factory: leveled, records: records, bracket: bracket)
                report.durability = level
                return report
            },
            sample: { dir in
                // A folder only for a store that lives in one (a server's store is a namespace there).
                if entry.isPersistentOnDisk { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
                return try FixtureDomain.writeSample(into: try Store(factory.configuration(dir, FixtureDomain.schema))).count
            },
            dump: { dir in
                // The store says its own schema; one that recorded only a fingerprint is read as the fixture domain.
                var configuration = readOnly(dir)
                if let recorded = try Store.recordedSchema(configuration)?.schema { configuration.schema = recorded }
                return try StoreDump.json(try Store(configuration))  // a dump never creates, repairs or removes a file
            },
            recordedSchema: { dir in try Store.recordedSchema(readOnly(dir)) },
            generations: { dir, count, large in
                // History on, so every kill also checks that history and data agree (`CrashWorkload.checkHistory`).
                var configuration = factory.configuration(dir, FixtureDomain.schema)
                configuration.recordsHistory = true
                try CrashWorkload.run(try Store(configuration), saves: count, largeEvery: large)
            },
            migrationTemplate: { dir, records in try MigrationWorkload.write({ factory.configuration(dir, $0) }, records: records) },
            migrate: { dir, inside, reached in try MigrationWorkload.migrate({ factory.configuration(dir, $0) }, inside: inside, reached: reached) },
            addAttribute: { dir in
                let v1 = MigrationWorkload.schema(1)
                var entities = v1.entities.map(\.declaration)
                entities[0].attributes.append(Attribute("isPinned", .bool, default: false))
                let added = try Schema(entities: entities, version: v1.version)
                let migration = try SchemaMigration.lightweight(from: v1, to: added)
                let started = ContinuousClock.now
                try Store.migrateStore(factory.configuration(dir, added), migration)
                let took = ContinuousClock.now - started
                try Store.migrateStore(factory.configuration(dir, v1), SchemaMigration.lightweight(from: added, to: v1))
                return took
            },
            migrationHasCustomStage: MigrationWorkload.hasCustomStage(Store.self),
            destroy: { dir in factory.destroy(dir) },
            migrationCheck: { dir, records in try MigrationWorkload.check({ factory.configuration(dir, $0) }, records: records) },
            crashCheck: { dir, large in try CrashWorkload.check(try Store(readOnly(dir)), largeEvery: large) },
            powerLossCheck: { dir, large in
                var configuration = factory.configuration(dir, FixtureDomain.schema)
                configuration.recordsHistory = true
                return try CrashWorkload.check(try Store(configuration), largeEvery: large)
            },
            damageSample: { dir, generation in try DamageSample.write(generation: generation, into: try Store(factory.configuration(dir, FixtureDomain.schema))) },
            detectsAllDamage: entry.detectsAllDamage, isAppendOnly: entry.isAppendOnly, holdsWholeStore: entry.holdsWholeStore,
            differential: { durability in
                guard BenchDurability.levels(of: name).contains(durability) else { return DifferentialBackend(name: name, factory: factory) }
                return DifferentialBackend(name: name, factory: StoreFactory<Store>(configuration: { BenchDurability.set(durability, on: factory.configuration($0, $1)) }, destroy: factory.destroy))
            })
    }

    func with(baseline: @escaping @Sendable (Int, String?, SaveDurability) throws -> [String: WorkloadReport.Figure]) -> BuiltinBackend {
        var copy = self
        copy.baseline = baseline
        return copy
    }

    /// The raw engine beneath each built-in backend (`strata bench --baseline`) and what it measures,
    /// by backend name; `strata backends` prints it, and `BuiltinListTests` fails when one is missing.
    static let baselines: [String: (description: String, run: @Sendable (Int, String?, SaveDurability) throws -> [String: WorkloadReport.Figure])] = [
        "sqlite": ("raw C SQLite: the backend's tables, prepared statements, one transaction per save, the backend's synchronous setting", { records, step, durability in try SQLiteBaseline.run(records: records, step: step, durability: durability) }),
        "lmdb": ("raw C LMDB: the backend's databases, one write transaction per save, the backend's sync flags", { records, step, durability in try LMDBBaseline.run(records: records, step: step, durability: durability) }),
        "json": ("Foundation JSONSerialization parsing the same files (document and journal), nothing built from them", { records, step, _ in try FileParseBaseline.json(records: records, step: step) }),
        "csv": ("a C byte-level RFC 4180 parse of the same CSV tables, counting records and fields", { records, step, _ in try FileParseBaseline.csv(records: records, step: step) }),
        "xml": ("libxml2 parsing the same XML document", { records, step, _ in try FileParseBaseline.xml(records: records, step: step) }),
        "memory": ("a plain Swift dictionary floor holding the same records", { records, step, _ in try MemoryBaseline.run(records: records, step: step) }),
        "postgres": ("C on libpq against the same server: the backend's tables in a namespace of its own, prepared statements, binary formats, one transaction per save under the same write lock, many-row saves pipelined", { records, step, _ in try PostgresBaseline.run(records: records, step: step) }),
    ]

    /// Every built-in backend (`BuiltinStores.all`), in the order `strata backends` lists them.
    static let all: [BuiltinBackend] = BuiltinStores.all.map { entry in
        let backend = make(entry)
        guard let baseline = baselines[entry.name] else { return backend }
        return backend.with(baseline: baseline.run)
    }

    /// The backends on a server (`BuiltinStores.servers`) with their baselines, when the server is
    /// named (`STRATA_POSTGRES_URL`: `--url`, `make report`, `make test`); else none.
    static var servers: [BuiltinBackend] {
        PostgresServer.url == nil ? [] : BuiltinStores.servers.map { try! named($0.name) }
    }

    /// The backend called `name`, or a validation error listing the known ones.
    static func named(_ name: String) throws -> BuiltinBackend {
        if let backend = all.first(where: { $0.name == name }) { return backend }
        // A backend on a server (`BuiltinStores.servers`): its server is `--url` or the environment's.
        if let entry = BuiltinStores.servers.first(where: { $0.name == name }) {
            let backend = make(entry)
            return baselines[name].map { backend.with(baseline: $0.run) } ?? backend
        }
        throw ValidationError("Unknown backend '\(name)'. Built-in backends: \((all.map(\.name) + BuiltinStores.servers.map(\.name)).joined(separator: ", ")).")
    }
}
