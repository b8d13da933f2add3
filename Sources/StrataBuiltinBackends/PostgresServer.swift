import Foundation
import Strata
import StrataPostgres

/// Which PostgreSQL server the built-in `postgres` backend uses, and the namespace of a folder.
///
/// The server is the URL in `STRATA_POSTGRES_URL` (the tools' `--url` sets it; `make postgres-up`
/// and `make test` export it), else nil: libpq's `PG*` environment variables, as `psql` reads them.
public enum PostgresServer {
    /// The variable that names the server.
    public static let variable = "STRATA_POSTGRES_URL"

    /// The server's connection URL, read when a store is configured.
    public static var url: String? { getenv(variable).map { String(cString: $0) } }

    /// Names the server for the rest of the process (the tools' `--url`).
    public static func use(_ url: String) { setenv(variable, url, 1) }

    /// The namespace of the store kept "in" `directory`: `strata_` and the 64-bit FNV-1a hash of
    /// its standardized path in hex, so reopening a folder reopens its store, every folder has its
    /// own, and the name fits PostgreSQL's 63-byte identifiers.
    public static func namespace(for directory: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in directory.standardizedFileURL.path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "strata_" + String(hash, radix: 16)
    }

    /// The configuration of the store `location` names: a `postgresql://…#namespace` (or
    /// `postgres://`) URL names the server and the namespace (`strata` when the URL has no
    /// fragment); a file URL names a folder, whose store is the namespace `namespace(for:)` on the
    /// server `url` names (as `strata dump --path` finds it).
    public static func configuration(_ location: URL, schema: Schema) -> PostgresStoreConfiguration {
        guard !location.isFileURL else { return PostgresStoreConfiguration(url: url, schema: schema, namespace: namespace(for: location)) }
        let text = location.absoluteString
        guard let hash = text.lastIndex(of: "#") else { return PostgresStoreConfiguration(url: text, schema: schema) }
        let fragment = String(text[text.index(after: hash)...])
        return PostgresStoreConfiguration(url: String(text[..<hash]), schema: schema, namespace: fragment.removingPercentEncoding ?? fragment)
    }

    /// The location a tool's argument names: a `postgresql://` or `postgres://` URL as it is, any
    /// other text as a folder path.
    public static func location(_ argument: String) -> URL {
        if argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://"), let url = URL(string: argument) { return url }
        return URL(fileURLWithPath: argument)
    }

    /// The schema a configuration that only drops a namespace carries.
    static let emptySchema = try! Schema(entities: [])
}
