import CPostgresBaseline
import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance

/// The standard workload on libpq, in C (`Benchmarks/CBaselines/CPostgresBaseline/postgres_baseline.c`):
/// the backend's tables, indexes, foreign key and delete trigger in a namespace of its own on the
/// same server, prepared statements with binary parameters and results, one transaction per save
/// under the same advisory write lock, every save pipelined (a one-statement save is one round
/// trip: BEGIN, the lock, the statement, COMMIT), the server's `synchronous_commit`
/// (docs/benchmarks.md, "PostgreSQL against C on libpq"). It runs in this process against the server
/// the backend uses (`--url`, else `STRATA_POSTGRES_URL`, else the `PG*` variables), so the ratio
/// backend / C is measured in one run.
enum PostgresBaseline {
    static func run(records: Int, step: String? = nil) throws -> [String: WorkloadReport.Figure] {
        let conninfo = PostgresServer.url ?? ""
        return try RawBaseline.run(records: records, step: step) { _, records, step, figures in
            conninfo.withCString { strata_postgres_baseline($0, records, step, figures) }
        }
    }
}

extension PostgresBaseline {
    /// What a returned save survives on the server the backend uses, from the server's `fsync` and
    /// `synchronous_commit` (`strata_postgres_server_durability`): `powerLoss` with both on,
    /// `processCrash` with `fsync` off (the test cluster's setting: the WAL is written before a commit
    /// returns, not flushed), nil when `synchronous_commit` is off or the server cannot be asked. The
    /// backend and its C baseline run on the same server, so they always run at the same level.
    static var serverDurability: SaveDurability? {
        switch (PostgresServer.url ?? "").withCString({ strata_postgres_server_durability($0) }) {
        case 2: .powerLoss
        case 1: .processCrash
        default: nil
        }
    }
}
