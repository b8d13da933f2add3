import Foundation
import Testing

/// The PostgreSQL server the tests run against: the one `make test` (or `make postgres-up`) starts
/// with Tests/Postgres/cluster.sh, found through the settings that script exports.
///
/// Plain `swift test` without those settings does not pretend: every PostgreSQL test is shown as
/// skipped with `reason` (docs/formats/postgres.md, "Tests without a server").
enum PostgresTestServer {
    static let environment = ProcessInfo.processInfo.environment
    /// The URL over the cluster's private Unix socket (no password).
    static var url: String? { environment["STRATA_POSTGRES_URL"] }
    /// The URL over loopback TCP, with the cluster's password.
    static var tcpURL: String? { environment["STRATA_POSTGRES_TCP_URL"] }
    /// The cluster's password (to check it never shows).
    static var password: String? { environment["STRATA_POSTGRES_PASSWORD"] }
    /// Whether a server was configured.
    static var isConfigured: Bool { url != nil && tcpURL != nil && password != nil }
    /// Why the tests are skipped when no server is configured.
    static let reason: Comment = "no PostgreSQL test server: run `make test`, or `eval \"$(make -s postgres-up)\"` before `swift test`"
}
