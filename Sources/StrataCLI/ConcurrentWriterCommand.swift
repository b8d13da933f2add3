import ArgumentParser
import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance

/// `strata concurrent-writer`: one worker of `ConcurrentWorkload`, for the tests that run several
/// processes against one store (docs/formats/postgres.md, "Many processes").
///
/// It opens the store, prints `ready`, waits for a line on standard input (so every worker starts
/// at once, on an observed event), then prints one line per acknowledged save, each as it happens,
/// and `done <n>` at the end. With `--prepare` it only creates the shared records and exits.
struct ConcurrentWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrent-writer", abstract: "Random saves beside other processes, each acknowledged save printed (used by the multi-process tests).", shouldDisplay: false)

    @Option var backend: String
    @Option var path: String
    @Option(help: "The PostgreSQL server of the postgres backend (a postgresql:// URL).") var url: String?
    @Option var worker: Int = 0
    @Option var saves: Int = 2_000
    @Option var seed: UInt64 = 1
    /// Create the shared records the workers update, then exit.
    @Flag var prepare = false
    /// Report a save that fails with `storeUnavailable` (`unavailable <op> <i>`), then wait for a
    /// line on standard input (the server is back) and go on.
    @Flag var toleratesUnavailable = false

    func run() throws {
        if let url { PostgresServer.use(url) }
        guard let entry = (BuiltinStores.all + BuiltinStores.servers).first(where: { $0.name == backend }) else {
            throw ValidationError("Unknown backend '\(backend)'.")
        }
        try run(entry.factory)
    }

    private func run<Factory: BuiltinStoreFactory>(_ factory: Factory) throws {
        let store = try Factory.Store(factory.stores.configuration(URL(fileURLWithPath: path), FixtureDomain.schema))
        if prepare { return try ConcurrentWorkload.prepare(store) }
        say("ready")
        guard readLine() != nil else { return }
        try ConcurrentWorkload.run(store, worker: worker, saves: saves, seed: seed, toleratesUnavailable: toleratesUnavailable, whenUnavailable: { _ = readLine() }, say: say)
    }

    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
