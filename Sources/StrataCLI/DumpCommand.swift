import ArgumentParser
import Foundation
import StrataBuiltinBackends

/// `strata dump --backend <name> --path <dir>`: a store's whole content as canonical JSON, for `diff`,
/// read at the schema the store records (a store of an older Strata, fingerprint only: the fixture domain).
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dump", abstract: "Print a store's content as canonical JSON (the same layout for every backend), read at the schema the store records.")

    @Option(help: "The backend that wrote the store.") var backend: String
    @Option(help: "The directory of the store.") var path: String
    @Option(help: "The PostgreSQL server of the postgres backend (a postgresql:// URL); default: STRATA_POSTGRES_URL, else the PG* variables.") var url: String?

    func run() throws {
        if let url { PostgresServer.use(url) }
        print(try BuiltinBackend.named(backend).dump(URL(fileURLWithPath: path)))
    }
}
