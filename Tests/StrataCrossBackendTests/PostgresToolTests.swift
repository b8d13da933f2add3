import Foundation
import StrataBuiltinBackends
import Testing

/// The `strata` tool on the `postgres` backend (`BuiltinStores.servers`), with the server given by
/// `--url` over loopback TCP: a sample written and dumped back, the password in no output. Needs the
/// server `make test` starts (docs/formats/postgres.md, "Tests without a server").
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STRATA_POSTGRES_TCP_URL"] != nil, "no PostgreSQL test server: run `make test`"))
struct PostgresToolTests {
    let url = ProcessInfo.processInfo.environment["STRATA_POSTGRES_TCP_URL"] ?? ""
    let password = ProcessInfo.processInfo.environment["STRATA_POSTGRES_PASSWORD"] ?? ""

    @Test func sampleAndDumpWithURL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pg-tool-\(UUID().uuidString)")
        defer { BuiltinStores.postgres.destroy(folder) }
        let (written, wrote) = try ReliabilityToolTests.run(["sample", "--backend", "postgres", "--url", url, "--path", folder.path])
        #expect(written == 0, "\(wrote)")
        #expect(wrote.contains("Wrote 22 records"), "\(wrote)")
        // It names the namespace psql needs, and makes no local folder (the store is on the server).
        #expect(wrote.contains("the PostgreSQL schema \(PostgresServer.namespace(for: folder)) on the server"), "\(wrote)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        let (dumped, dump) = try ReliabilityToolTests.run(["dump", "--backend", "postgres", "--url", url, "--path", folder.path])
        #expect(dumped == 0)
        #expect(dump.contains("\"Author\""), "\(dump.prefix(400))")
        #expect(!password.isEmpty && !(wrote + dump).contains(password))
        // A wrong password: a clear failure, neither password shown.
        let wrong = url.replacingOccurrences(of: password, with: "not-the-password")
        let (failed, refused) = try ReliabilityToolTests.run(["dump", "--backend", "postgres", "--url", wrong, "--path", folder.path])
        #expect(failed != 0)
        #expect(!refused.contains(password) && !refused.contains("not-the-password"))
    }
}
