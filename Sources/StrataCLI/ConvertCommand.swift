import ArgumentParser
import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance

#if canImport(Glibc)
import Glibc
#endif

/// `strata convert --from-backend A --from DIR --to-backend B --to DIR`: copies a store into a new
/// store of another backend, atomically and verified (docs/convert.md). A PostgreSQL store is a
/// `postgresql://…#namespace` URL, or a folder path as `strata dump --path` takes it.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Copy every record and relationship of a store into a new store of another backend, read at the schema the source records; atomic and verified.")

    @Option(help: "The backend that wrote the source store.") var fromBackend: String
    @Option(help: "The directory of the source store (postgres: a postgresql://…#namespace URL, or a path as `strata dump` takes it).") var from: String
    @Option(help: "The backend of the new store.") var toBackend: String
    @Option(help: "The directory of the new store; nothing may exist there yet (postgres: a postgresql://…#namespace URL, or a path).") var to: String
    @Option(help: "The PostgreSQL server of a postgres store named by a path (a postgresql:// URL); default: STRATA_POSTGRES_URL, else the PG* variables.") var url: String?
    @Option(help: "Records per save and per read: memory grows with it.") var batchSize = 2_000
    @Flag(help: "Print progress on standard error even when it is not a terminal: one line per batch (tests and logs watch it).") var progress = false
    @Flag(inversion: .prefixedNo, help: "Compare both stores record by record (as `strata dump` prints them) before the new store appears.") var verify = true

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1.") }
        for name in [fromBackend, toBackend] {
            guard let backend = BuiltinStores.named(name) else {
                throw ValidationError("Unknown backend '\(name)'. Built-in backends: \(BuiltinStores.all.map(\.name).joined(separator: ", ")).")
            }
            guard backend.isPersistentOnDisk || BuiltinStores.servers.contains(where: { $0.name == name }) else {
                throw ValidationError("The \(name) backend keeps its stores inside one process, so a command cannot convert from or to it; use StoreCopy.copy in the program that holds the store.")
            }
        }
    }

    func run() throws {
        if let url { PostgresServer.use(url) }
        let onTerminal = isatty(STDERR_FILENO) == 1, showsProgress = onTerminal || progress
        let started = ContinuousClock.now
        var options = StoreCopy.Options(batchSize: batchSize, verify: verify)
        if showsProgress {
            // On a terminal one line rewritten in place; otherwise one line per batch.
            let (start, end) = onTerminal ? ("\r\u{1B}[K", "") : ("", "\n")
            options.progress = { progress in
                FileHandle.standardError.write(Data("\(start)\(progress.phase): \(progress.done) of \(progress.total) records\(end)".utf8))
            }
        }
        let destination = PostgresServer.location(to), target = BuiltinStores.named(toBackend)!
        let report = try StoreConversion.convert(from: BuiltinStores.named(fromBackend)!, PostgresServer.location(from), to: target, destination, options: options)
        if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let took = ContinuousClock.now - started
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(report.records) / seconds) : report.records
        print("converted \(report.records) records and \(report.links) links from \(fromBackend) \(from) to \(toBackend) \(to) in \(String(format: "%.2f", seconds)) s (\(rate) records/s)")
        if report.keyMap.keepsKeys {
            print("keys: every record kept its primary key")
        } else {
            // A folder holds its map; a store on a server has no folder, the map goes into the working directory.
            var map = destination.appendingPathComponent(StoreConversion.keyMapFile)
            if !target.isPersistentOnDisk {
                map = URL(fileURLWithPath: StoreConversion.keyMapFile)
                try Data(report.keyMap.csv.utf8).write(to: map, options: .atomic)
            }
            print("keys: renumbered in \(report.keyMap.renumberedEntities.joined(separator: ", ")) (the source has gaps); the map is in \(map.path)")
        }
        if report.droppedDanglingReferences > 0 {
            print("dangling references left empty: \(report.droppedDanglingReferences) (to-ones naming records the source no longer holds)")
        }
        print(report.verified ? "verified: both stores hold the same records and links" : "not verified (--no-verify)")
    }
}

/// `strata convert-sample --backend <name> --path <dir> --records N`: writes a seeded random store
/// of the differential schema (`RandomStore`) to convert (docs/convert.md's figures and checks).
struct ConvertSampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-sample",
        abstract: "Write a seeded random store of the differential schema (notes, folders, tags) to convert.",
        shouldDisplay: false)

    @Option(help: "The backend of the store.") var backend: String
    @Option(help: "The directory of the new store (postgres: a postgresql://…#namespace URL, or a path).") var path: String
    @Option(help: "The PostgreSQL server of a postgres store named by a path; default: STRATA_POSTGRES_URL, else the PG* variables.") var url: String?
    @Option(help: "About how many records.") var records = 10_000
    @Option(help: "The seed: the same seed writes the same store.") var seed: UInt64 = 1
    @Option(help: "Delete about one note in N afterwards, leaving gaps in the keys (0: none).") var deleteEvery = 20

    func run() throws {
        if let url { PostgresServer.use(url) }
        guard let store = BuiltinStores.named(backend), store.name != "memory" else {
            throw ValidationError("Unknown or in-process backend '\(backend)'. Backends with files or a server: \((BuiltinStores.all + BuiltinStores.servers).filter { $0.name != "memory" }.map(\.name).joined(separator: ", ")).")
        }
        let written = try write(store.factory, PostgresServer.location(path))
        print("wrote \(written.records) records (\(written.deleted) deleted after writing) into \(backend) \(path)")
    }

    private func write<F: BuiltinStoreFactory>(_ factory: F, _ dir: URL) throws -> RandomStore.Written {
        if dir.isFileURL { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        return try RandomStore.write(into: try F.Store(factory.stores.configuration(dir, DifferentialSchema.schema)), records: records, seed: seed, deleteEvery: deleteEvery)
    }
}
