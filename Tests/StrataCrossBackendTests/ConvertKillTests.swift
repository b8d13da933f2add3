import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance
import StrataPostgres
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `strata convert` killed with SIGKILL in the middle, into every backend with files or a server:
/// the destination holds nothing (or, killed after the rename, the whole store), and the next
/// convert removes what the killed one left and publishes the store. The kills are placed after
/// observed progress lines (`--progress`: one per batch of the records, links and verify phases),
/// never after a delay. `make`-free long runs: `STRATA_CONVERT_KILLS=50` sets the kills per backend.
struct ConvertKillTests {
    static let destinations = ConvertTests.backends.filter { $0.name != "memory" }.map(\.name)

    /// The progress lines after which each trial kills: records, links and verify phases.
    static var killPoints: [Int] {
        guard let count = ProcessInfo.processInfo.environment["STRATA_CONVERT_KILLS"].flatMap(Int.init), count > 0 else { return [1, 14, 27, 40] }
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in Int.random(in: 1...45, using: &generator) }
    }

    @Test(arguments: destinations) func killedConvertLeavesNoStoreAtTheDestination(to name: String) throws {
        let sqlite = try #require(BuiltinStores.named("sqlite")), to = try #require(BuiltinStores.named(name))
        let source = ConvertTests.folder("kill-source"), parent = ConvertTests.folder("kill-\(name)")
        let destination = parent.appendingPathComponent("copy")
        defer { ConvertTests.destroy(sqlite, source); ConvertTests.destroy(to, destination); try? FileManager.default.removeItem(at: parent) }
        try ConvertTests.write(sqlite.factory, source, DifferentialSchema.schema) { _ = try RandomStore.write(into: $0, records: 600, seed: 5, deleteEvery: 0, batch: 300) }
        let expected = try ConvertTests.dump(sqlite, source)
        var killed = 0, finished = 0
        for point in Self.killPoints {
            let outcome = try Self.convertKilled(after: point, source.path, to: name, destination.path)
            if try Self.holdsStore(to.factory, destination) {
                // Killed after the rename (or it finished first): the whole store, equal to its source.
                #expect(try ConvertTests.dump(to, destination) == expected, "\(name): a store at the destination after a kill at line \(point) differs from its source")
                ConvertTests.destroy(to, destination)
                finished += 1
            } else {
                #expect(outcome == SIGKILL, "\(name): convert ended with \(outcome) but left no store")
                #expect(!FileManager.default.fileExists(atPath: destination.path), "\(name): something at the destination after a kill")
                #expect(try !Self.staging(to.factory, destination).isEmpty, "\(name): a convert killed mid-copy left no staging (was it killed mid-copy?)")
                killed += 1
            }
        }
        print("convert into \(name): \(killed) killed mid-convert left no store, \(finished) found complete and equal to the source")
        #expect(killed > 0, "\(name): no kill landed mid-convert (\(finished) finished)")
        // The next convert removes what the killed ones left, and publishes the store.
        let report = try StoreConversion.convert(from: sqlite, source, to: to, destination, options: .init(batchSize: 200))
        #expect(report.verified)
        #expect(try Self.staging(to.factory, destination).isEmpty, "\(name): staging left after a complete convert")
        #expect(try ConvertTests.dump(to, destination) == expected)
    }

    /// Runs `strata convert` into `destination`, kills it after `point` progress lines (or lets it
    /// finish if it prints fewer), and returns how it ended (the signal, or 0 for a clean exit).
    static func convertKilled(after point: Int, _ source: String, to backend: String, _ destination: String) throws -> Int32 {
        let process = Process()
        process.executableURL = ReliabilityToolTests.strata
        process.arguments = ["convert", "--from-backend", "sqlite", "--from", source, "--to-backend", backend, "--to", destination, "--batch-size", "40", "--progress"]
        let progress = Pipe()
        process.standardError = progress
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var lines = 0
        while lines < point {
            let data = progress.fileHandleForReading.availableData
            if data.isEmpty { break }
            lines += data.count { $0 == UInt8(ascii: "\n") }
        }
        if lines >= point { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? process.terminationStatus : 0
    }

    /// Whether a store of the backend opens at `location` (reads its recorded schema).
    static func holdsStore<F: BuiltinStoreFactory>(_ factory: F, _ location: URL) throws -> Bool {
        var configuration = factory.stores.configuration(location, DifferentialSchema.schema)
        configuration.isReadOnly = true
        return try F.Store.recordedSchema(configuration) != nil
    }

    /// What converts into `location` are staging or left: staging folders beside it, or staging
    /// namespaces on the server.
    static func staging<F: BuiltinStoreFactory>(_ factory: F, _ location: URL) throws -> [String] {
        if let server = factory.stores.configuration(location, DifferentialSchema.schema) as? PostgresStoreConfiguration {
            return try PostgresStore.stagingNamespaces(for: server)
        }
        let parent = location.deletingLastPathComponent()
        return try FileManager.default.contentsOfDirectory(atPath: parent.path).filter { $0.hasPrefix(".\(location.lastPathComponent).strata-convert-") }
    }
}
