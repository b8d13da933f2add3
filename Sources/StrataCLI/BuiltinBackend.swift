import ArgumentParser
import Foundation
import Strata
import StrataConformance
import StrataMemory
import StrataSQLite
import StrataJSON
import StrataCSV
import StrataLMDB
import StrataXML
import StrataToolSupport

/// A backend the `strata` tool knows by name, with everything the commands do to it erased to closures.
///
/// Later backends add one `BuiltinBackend.make` line to `all`.
struct BuiltinBackend: Sendable {
    let name: String
    let summary: String
    /// Whether its stores live in files (the memory backend's do not outlive the process).
    let isPersistentOnDisk: Bool
    let capabilities: @Sendable () throws -> StoreCapabilities
    let conformance: @Sendable () -> [ConformanceResult]
    let bench: @Sendable (_ records: Int, _ bracket: StandardWorkload.StepBracket?) throws -> WorkloadReport
    let sample: @Sendable (_ directory: URL) throws -> Int
    let dump: @Sendable (_ directory: URL) throws -> String
    /// Saves generation after generation into a store until killed (for crash tests); every
    /// `largeEvery`-th is a large save (0: none).
    let generations: @Sendable (_ directory: URL, _ count: Int, _ largeEvery: Int) throws -> Void
    /// Reopens a crash-workload store and returns its generation (`strata torture`).
    let crashCheck: @Sendable (_ directory: URL, _ largeEvery: Int) throws -> Int
    /// Writes one generation of the damage fuzzer's sample store (`strata fuzz`).
    let damageSample: @Sendable (_ directory: URL, _ generation: Int) throws -> Void
    /// Whether the format checksums everything it stores, so that `strata fuzz` counts a silently
    /// wrong open as a failure (SQLite's format has no checksums: its silent cases are reported apart).
    let detectsAllDamage: Bool
    /// The files (relative to the store's folder) the backend only appends to, where a cut at the
    /// end is what a crash leaves (`strata fuzz`).
    let isAppendOnly: @Sendable (_ file: String) -> Bool
    /// The backend as a participant of differential runs (`strata difftest`).
    let differential: DifferentialBackend
    /// The same workload on the raw engine underneath, when there is one; `step` names the one step
    /// to run inside `strata_measure` (for callgrind), if any.
    var baseline: (@Sendable (_ records: Int, _ step: String?) throws -> [String: WorkloadReport.Figure])? = nil

    static func make<Store: DataStore>(_ name: String, _ summary: String, onDisk: Bool, detectsAllDamage: Bool = true, appendOnly: @escaping @Sendable (String) -> Bool = { _ in false }, factory: StoreFactory<Store>) -> BuiltinBackend {
        /// Opening to read (dumps, checks after a kill) uses the read-only mode: reading never writes.
        @Sendable func readOnly(_ dir: URL) -> Store.Configuration {
            var configuration = factory.configuration(dir, FixtureDomain.schema)
            configuration.isReadOnly = true
            return configuration
        }
        return BuiltinBackend(
            name: name, summary: summary, isPersistentOnDisk: onDisk,
            capabilities: {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-caps-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                defer { factory.destroy(dir) }
                return try Store(factory.configuration(dir, FixtureDomain.schema)).capabilities
            },
            conformance: { ConformanceSuite.run(on: factory) },
            bench: { records, bracket in try StandardWorkload.run(name, factory: factory, records: records, bracket: bracket) },
            sample: { dir in
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                return try FixtureDomain.writeSample(into: try Store(factory.configuration(dir, FixtureDomain.schema))).count
            },
            dump: { dir in try StoreDump.json(try Store(readOnly(dir))) },  // a dump never creates, repairs or removes a file
            generations: { dir, count, large in try CrashWorkload.run(try Store(factory.configuration(dir, FixtureDomain.schema)), saves: count, largeEvery: large) },
            crashCheck: { dir, large in try CrashWorkload.check(try Store(readOnly(dir)), largeEvery: large) },
            damageSample: { dir, generation in try DamageSample.write(generation: generation, into: try Store(factory.configuration(dir, FixtureDomain.schema))) },
            detectsAllDamage: detectsAllDamage, isAppendOnly: appendOnly,
            differential: DifferentialBackend(name: name, factory: factory))
    }

    func with(baseline: @escaping @Sendable (Int, String?) throws -> [String: WorkloadReport.Figure]) -> BuiltinBackend {
        var copy = self
        copy.baseline = baseline
        return copy
    }

    /// Every built-in backend, in the order `strata backends` lists them.
    static let all: [BuiltinBackend] = [
        make(
            "sqlite", "The embedded default: one SQLite file with real tables, native constraints and queries in SQL (libsqlite3).", onDisk: true, detectsAllDamage: false, appendOnly: { $0.hasSuffix("-wal") },
            factory: BuiltinStores.sqlite
        ).with(baseline: { try SQLiteBaseline.run(records: $0, step: $1) }),
        make(
            "lmdb", "B-trees in one LMDB environment: records by key, unique, index and to-many databases, MVCC readers (liblmdb).", onDisk: true, detectsAllDamage: false,
            factory: BuiltinStores.lmdb
        ).with(baseline: { try LMDBBaseline.run(records: $0, step: $1) }),
        make(
            "json", "A readable JSON document plus an append-only journal, crash-safe, on the shared engine.", onDisk: true, appendOnly: { $0.hasSuffix(".journal") },
            factory: BuiltinStores.json
        ).with(baseline: { try FileParseBaseline.json(records: $0, step: $1) }),
        make(
            "csv", "A folder of CSV tables a spreadsheet opens, committed atomically through a manifest.", onDisk: true,
            factory: BuiltinStores.csv
        ).with(baseline: { try FileParseBaseline.csv(records: $0, step: $1) }),
        make(
            "xml", "A well-formed XML document, valid against its schema, plus a journal, crash-safe, read with libxml2's SAX2 parser.", onDisk: true, appendOnly: { $0.hasSuffix(".journal") },
            factory: BuiltinStores.xml
        ).with(baseline: { try FileParseBaseline.xml(records: $0, step: $1) }),
        make(
            "memory", "In-memory reference backend on the shared engine; data lives as long as the process.", onDisk: false,
            factory: BuiltinStores.memory
        ).with(baseline: { try MemoryBaseline.run(records: $0, step: $1) }),
    ]

    /// The backend called `name`, or a validation error listing the known ones.
    static func named(_ name: String) throws -> BuiltinBackend {
        guard let backend = all.first(where: { $0.name == name }) else {
            throw ValidationError("Unknown backend '\(name)'. Built-in backends: \(all.map(\.name).joined(separator: ", ")).")
        }
        return backend
    }
}
