import ArgumentParser
import Foundation
import StrataBuiltinBackends

/// `strata sample --backend <name> --path <dir>`: writes the suite's fixture domain into a store.
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sample", abstract: "Write the conformance fixture domain into a store, to inspect with the backend's own tools.")

    @Option(help: "The backend to write with.") var backend: String
    @Option(help: "The directory of the store (created if missing; postgres: a postgresql://…#namespace URL, or a path whose namespace is its hash).") var path: String
    @Option(help: "The PostgreSQL server of the postgres backend (a postgresql:// URL); default: STRATA_POSTGRES_URL, else the PG* variables.") var url: String?

    func run() throws {
        if let url { PostgresServer.use(url) }
        let chosen = try BuiltinBackend.named(backend)
        let location = PostgresServer.location(path)
        let count = try chosen.sample(location)
        print("Wrote \(count) records of the fixture domain to \(chosen.place(location)) with the \(chosen.name) backend.")
        if !chosen.isPersistentOnDisk, try !chosen.capabilities().contains(.persistence) {
            print("The \(chosen.name) backend keeps data in the process only; here is what it holds:")
            print(try chosen.dump(location))
        }
    }
}
