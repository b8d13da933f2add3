import ArgumentParser
import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance

/// `strata convert-bench --from A --to B,C --records N`: writes one seeded random store of
/// backend A (`RandomStore`, the differential schema) and converts it into each of B, C… with
/// `strata convert`'s code path (staged, verified, published), timing each: the report's convert
/// figures (docs/convert.md, "Figures"; `strata report` runs one per source backend).
struct ConvertBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-bench",
        abstract: "Time converts of one random store into other backends (records/s, verification included).",
        shouldDisplay: false)

    @Option(help: "The backend of the source store.") var from: String
    @Option(help: "The destination backends, comma-separated.") var to: String
    @Option(help: "About how many records the source store holds.") var records = 100_000
    @Option(help: "The seed of the source store.") var seed: UInt64 = 3
    @Option(help: "Records per save and per read.") var batchSize = 2_000
    @Option(help: "Output: text, json (one array at the end), or lines (one JSON figure a line, written as each convert ends).") var format = "text"
    @Option(help: "The folder to work in (made if missing, removed at the end; default: a new one in the temporary directory). strata report names one and removes it itself, however the child ends.") var scratch: String?

    /// One timed convert.
    struct Figure: Codable {
        var from: String
        var to: String
        /// Records copied.
        var records: Int
        /// Relationship targets written in the links pass.
        var links: Int
        /// Wall seconds of the whole convert: copy, verification, publishing.
        var seconds: Double
        /// Whether every primary key was kept.
        var keysKept: Bool
        /// Records per second of wall time.
        var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }
    }

    func validate() throws {
        for name in [from] + destinations {
            guard let backend = BuiltinStores.named(name), name != "memory" else { throw ValidationError("Unknown or in-process backend '\(name)'.") }
            _ = backend
        }
        guard ["text", "json", "lines"].contains(format) else { throw ValidationError("--format is text, json or lines.") }
    }

    var destinations: [String] { to.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

    func run() throws {
        let scratch = self.scratch.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Self.newScratch()
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { Self.removeScratch(scratch, from: from, to: destinations) }
        let source = BuiltinStores.named(from)!, sourceFolder = Self.sourceFolder(in: scratch)
        defer { source.factory.destroyStore(sourceFolder) }
        try Self.write(source.factory, sourceFolder, records: records, seed: seed)
        var figures: [Figure] = []
        for name in destinations {
            let destination = BuiltinStores.named(name)!, folder = Self.destinationFolder(name, in: scratch)
            defer { destination.factory.destroyStore(folder) }
            let started = ContinuousClock.now
            let report = try StoreConversion.convert(from: source, sourceFolder, to: destination, folder, options: .init(batchSize: batchSize))
            let took = ContinuousClock.now - started
            let figure = Figure(
                from: from, to: name, records: report.records, links: report.links,
                seconds: Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18, keysKept: report.keyMap.keepsKeys)
            figures.append(figure)
            if format == "lines" {
                // Written at once (not buffered), so a parent that stops this child keeps the figures it has.
                FileHandle.standardOutput.write(try JSONEncoder().encode(figure) + Data("\n".utf8))
            }
        }
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(figures), as: UTF8.self))
        } else if format == "text" {
            for f in figures {
                print("\(f.from) → \(f.to): \(f.records) records, \(f.links) links in \(String(format: "%.2f", f.seconds)) s (\(Int(f.recordsPerSecond)) records/s)")
            }
        }
    }

    /// A new scratch folder in the temporary directory, not made yet: `strata-convert-bench-<UUID>`.
    static func newScratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("strata-convert-bench-\(UUID().uuidString)", isDirectory: true)
    }

    /// The source store's folder in `scratch`.
    static func sourceFolder(in scratch: URL) -> URL { scratch.appendingPathComponent("source") }

    /// The folder of the convert into `backend` in `scratch`.
    static func destinationFolder(_ backend: String, in scratch: URL) -> URL { scratch.appendingPathComponent("to-\(backend)") }

    /// Removes everything a run in `scratch` from `from` into `destinations` may have left, whether
    /// it finished or was stopped mid-way (`strata report` calls it after each child, however it
    /// ended): the stores a server backend keeps for its folders (PostgreSQL namespaces, and the
    /// staging namespace of a convert stopped mid-copy), then the folder.
    static func removeScratch(_ scratch: URL, from: String, to destinations: [String]) {
        let servers = Set(BuiltinStores.servers.map(\.name))
        if servers.contains(from) { BuiltinStores.named(from)?.factory.destroyStore(sourceFolder(in: scratch)) }
        for name in destinations where servers.contains(name) {
            let folder = destinationFolder(name, in: scratch)
            BuiltinStores.named(name)?.factory.destroyStore(folder)
            StoreConversion.dropAbandonedServerStaging(for: folder)
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    private static func write<F: BuiltinStoreFactory>(_ factory: F, _ dir: URL, records: Int, seed: UInt64) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = try RandomStore.write(into: try F.Store(factory.stores.configuration(dir, DifferentialSchema.schema)), records: records, seed: seed)
    }
}

extension BuiltinStoreFactory {
    /// Destroys the store at `location` (the factory's `destroy`).
    func destroyStore(_ location: URL) { stores.destroy(location) }
}
