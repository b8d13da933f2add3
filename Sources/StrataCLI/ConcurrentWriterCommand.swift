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
///
/// With `--updates` it opens the store recording history and makes every save a one-record update
/// of the Sample `shared`, the model layer's commonest save (on PostgreSQL the one-round-trip path,
/// `PostgresStore+SingleUpdate.swift`): update `i` sets its `int` to the value it held plus `i`'s
/// rank, `double` to a quarter of it and `string` to `u<value>`, and prints `update <value>`. The
/// kill test of that path (`PostgresHistoryKillTests`) kills it between two lines and checks that
/// history and data agree.
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
    /// One-record updates of the Sample `shared`, history on (see the type's comment).
    @Flag var updates = false

    func run() throws {
        if let url { PostgresServer.use(url) }
        guard let entry = (BuiltinStores.all + BuiltinStores.servers).first(where: { $0.name == backend }) else {
            throw ValidationError("Unknown backend '\(backend)'.")
        }
        try run(entry.factory)
    }

    private func run<Factory: BuiltinStoreFactory>(_ factory: Factory) throws {
        var configuration = factory.stores.configuration(URL(fileURLWithPath: path), FixtureDomain.schema)
        configuration.recordsHistory = updates
        let store = try Factory.Store(configuration)
        if prepare { return try ConcurrentWorkload.prepare(store) }
        say("ready")
        guard readLine() != nil else { return }
        if updates { return try runUpdates(store) }
        try ConcurrentWorkload.run(store, worker: worker, saves: saves, seed: seed, toleratesUnavailable: toleratesUnavailable, whenUnavailable: { _ = readLine() }, say: say)
    }

    /// `--updates`: `saves` one-record updates of the Sample `shared`, each acknowledged as it returns.
    private func runUpdates<Store: DataStore>(_ store: Store) throws {
        guard var shared = try store.fetch(FetchDescriptor(entity: "Sample", predicate: .compare("label", .equal, .string("shared")))).first else {
            throw ValidationError("The Sample 'shared' is missing: run with --prepare first.")
        }
        let start = try shared.value("int").int ?? 0
        for i in 1...max(saves, 1) {
            let value = start + Int64(i)
            shared = try shared.updating(["int": .int(value), "double": .double(Double(value) / 4), "string": .string("u\(value)")])
            _ = try store.save(SaveRequest(updated: [shared]))
            say("update \(value)")
        }
        say("done \(saves)")
    }

    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
