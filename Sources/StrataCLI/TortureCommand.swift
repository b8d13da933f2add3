import ArgumentParser
import Foundation
import StrataBuiltinBackends
import StrataConformance

/// `strata torture --backend <name> --trials N`: kills a writer with SIGKILL inside small and large
/// saves, reopens after every kill and checks that nothing reported as saved was lost.
struct TortureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture", abstract: "Kill a writer with SIGKILL inside small and large saves, reopen, and check every promise of the contract.")

    @Option(help: "The backend to torture (a backend whose stores live in files, or postgres).") var backend: String
    @Option(help: "The PostgreSQL server of the postgres backend (a postgresql:// URL); default: STRATA_POSTGRES_URL, else the PG* variables. The writers are killed, not the server.") var url: String?
    @Option(help: "How many times a writer is started and killed.") var trials: Int = 100
    @Option(help: "The seed of every random choice.") var seed: UInt64 = 1
    @Option(help: "Every k-th generation is a large save of thousands of records (0: none).") var largeEvery: Int = 4
    @Option(help: "After this many kills the run goes on in a fresh store (0: one store for the whole run).") var killsPerStore: Int = 100
    @Option(help: "Where stores are written (default: a new temporary folder, removed after a passing run).") var workDirectory: String?
    @Flag(help: "Kill writers inside a schema migration (v1 → v2 → v3) instead of inside saves.") var migration = false
    @Option(help: "With --migration: the records of the version-1 store.") var records: Int = 2_000

    func validate() throws {
        guard trials > 0 else { throw ValidationError("--trials must be at least 1.") }
        guard largeEvery >= 0 else { throw ValidationError("--large-every cannot be negative.") }
        guard killsPerStore >= 0 else { throw ValidationError("--kills-per-store cannot be negative.") }
    }

    func run() throws {
        if let url { PostgresServer.use(url) }  // the writers inherit it
        let chosen = try BuiltinBackend.named(backend)
        // A server backend's stores outlive the killed writer too: namespaces on the server named by
        // --url or STRATA_POSTGRES_URL, which the writers inherit.
        let onServer = BuiltinStores.servers.contains { $0.name == chosen.name }
        guard chosen.isPersistentOnDisk || onServer else { throw ValidationError("The \(backend) backend keeps nothing after its process ends: there is nothing to reopen after a kill.") }
        let work = ToolFolder(workDirectory, prefix: "strata-torture")
        let tool = try ToolFolder.executable
        if migration {
            let records = self.records
            let discard: ((URL) -> Void)? = onServer ? { chosen.destroy($0) } : nil
            let report = try MigrationTorture.run(
                trials: trials, seed: seed, in: try work.create(),
                template: { dir in try chosen.migrationTemplate(dir, records) },
                writer: { dir in (tool, ["crash-writer", "--backend", backend, "--path", dir.path, "--migrate"]) },
                check: { dir in try chosen.migrationCheck(dir, records) },
                onServer: discard,
                progress: { trial in if trial % 50 == 0 { FileHandle.standardError.write(Data("\(trial)/\(trials) trials\n".utf8)) } })
            print(report.table(backend: backend, records: records))
            work.finish(keep: !report.passed)
            if !report.passed { throw ExitCode(1) }
            return
        }
        let report = try Torture.run(
            Torture.Options(trials: trials, seed: seed, largeEvery: largeEvery, killsPerStore: killsPerStore), in: try work.create(),
            writer: { dir, saves, large in (tool, ["crash-writer", "--backend", backend, "--path", dir.path, "--saves", "\(saves)", "--large-every", "\(large)"]) },
            reopen: { dir, large in try chosen.crashCheck(dir, large) },
            progress: { trial, _ in if trial % 50 == 0 { FileHandle.standardError.write(Data("\(trial)/\(trials) trials\n".utf8)) } })
        print(report.table(backend: backend))
        // A server's stores are namespaces named after the trial folders: dropped after a passing
        // run in a temporary folder, kept with the folders otherwise, so they can be looked at.
        if onServer, report.passed, work.isTemporary { ServerStores.drop(under: work.url) }
        work.finish(keep: !report.passed)
        if !report.passed { throw ExitCode(1) }
    }
}

/// The folder a reliability tool writes in: given, or a fresh temporary one removed after a
/// passing run (a failing run keeps it, so the damaged store can be looked at).
struct ToolFolder {
    let url: URL
    let isTemporary: Bool

    init(_ path: String?, prefix: String) {
        isTemporary = path == nil
        url = path.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    func create() throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func finish(keep: Bool) {
        if keep { FileHandle.standardError.write(Data("stores kept in \(url.path)\n".utf8)) } else if isTemporary { try? FileManager.default.removeItem(at: url) }
    }

    /// This very executable, so children run the same build.
    static var executable: URL {
        get throws { URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) }
    }
}

/// The stores a tool made on a server (`BuiltinStores.servers`) for the folders under a work folder.
enum ServerStores {
    /// Drops the namespace of every folder directly under `folder` (and of `folder` itself) on the
    /// postgres backend's server; a server that cannot be reached is left as it is.
    static func drop(under folder: URL) {
        let children = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for directory in [folder] + children { BuiltinStores.postgres.destroy(directory) }
    }
}
