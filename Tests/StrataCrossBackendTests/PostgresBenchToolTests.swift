import Foundation
import StrataBuiltinBackends
import StrataTestSupport
import Testing

/// `strata bench --baseline`, `torture` and `fuzz` on the `postgres` backend against the server
/// `make test` starts (docs/formats/postgres.md, "The tools"; docs/benchmarks.md, "PostgreSQL
/// against C on libpq").
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STRATA_POSTGRES_TCP_URL"] != nil, "no PostgreSQL test server: run `make test`"))
struct PostgresBenchToolTests {
    let url = ProcessInfo.processInfo.environment["STRATA_POSTGRES_TCP_URL"] ?? ""

    /// Runs the tool and returns its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let run = try ChildProcess.run(BuiltProducts.strata, arguments)
        return (run.status, run.output, run.errors)
    }

    /// The workload and its C baseline on libpq in one run: every step of both has a positive
    /// figure, the ratios are printed, and the level is the server's (the test server runs with
    /// fsync off: processCrash). The C baseline's namespace is gone afterwards.
    @Test func benchAgainstCOnLibpq() throws {
        let (status, json, errors) = try Self.run(["bench", "--backend", "postgres", "--url", url, "--records", "1000", "--baseline", "--format", "json"])
        #expect(status == 0, "\(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect(report["durability"] as? String == "processCrash", "\(json)")
        let steps = try #require(report["steps"] as? [String: [String: Any]])
        let baseline = try #require(report["baseline"] as? [String: [String: Any]], "\(json)")
        for step in ["insert", "reopen", "fetch-by-id", "scan", "filter", "update-one", "update-batch", "unique-violation", "cascade-delete"] {
            #expect((steps[step]?["value"] as? Double ?? 0) > 0, "backend \(step)")
            #expect((baseline[step]?["value"] as? Double ?? 0) > 0, "C \(step)")
        }
        #expect((baseline["size"]?["value"] as? Double ?? 0) > 0, "the C tables' size")
        let (listed, namespaces, _) = try Self.run(["bench", "--backend", "postgres", "--url", url, "--records", "1000", "--baseline"])
        #expect(listed == 0)
        #expect(namespaces.contains("speed ×") || namespaces.contains("×"), "\(namespaces)")
    }

    /// `--durability` cannot be chosen by the client.
    @Test func benchRefusesAClientDurability() throws {
        let (status, _, errors) = try Self.run(["bench", "--backend", "postgres", "--url", url, "--records", "1000", "--durability", "processCrash"])
        #expect(status != 0)
        #expect(errors.contains("server's"), "\(errors)")
    }

    /// Writers killed inside saves on the server: every reported save is there after each kill.
    @Test func tortureKillsWritersOnTheServer() throws {
        let (status, table, errors) = try Self.run(["torture", "--backend", "postgres", "--url", url, "--trials", "4", "--seed", "3", "--large-every", "3"])
        #expect(status == 0, "\(table)\(errors)")
        #expect(table.contains("kills                     4"), "\(table)")
    }

    /// File damage does not apply to a server's store: refused, saying why.
    @Test func fuzzIsRefusedWithTheReason() throws {
        let (status, _, errors) = try Self.run(["fuzz", "--backend", "postgres", "--url", url, "--trials", "2"])
        #expect(status != 0)
        #expect(errors.contains("not in files") && errors.contains("strata torture"), "\(errors)")
    }
}
