import Foundation

/// Where a PostgreSQL store connects: a standard connection string, or nothing and libpq reads the
/// `PG*` environment variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, …).
///
/// It knows the password(s) in play (in the URL's user info, a `password=` parameter or
/// `PGPASSWORD`) so that no message it hands on contains one: `redacting(_:)` is applied to every
/// error text from libpq or the server, and `description` shows the URL with `***` for its password.
struct PostgresConnectionSettings: Sendable, CustomStringConvertible {
    /// The connection string as given (a `postgresql://` URL or `key=value` pairs), "" for the environment.
    let conninfo: String
    /// Every secret that must never appear in a message, longest first.
    private let secrets: [String]

    init(url: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        conninfo = url ?? ""
        var found = Self.passwords(in: conninfo)
        if let password = environment["PGPASSWORD"], !password.isEmpty { found.append(password) }
        secrets = Set(found.flatMap { [$0, $0.removingPercentEncoding ?? $0, $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0] })
            .filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// `text` with every password replaced by `***`.
    func redacting(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// The connection string with its password as `***` ("the PG* environment variables" when empty).
    var description: String { conninfo.isEmpty ? "the PG* environment variables" : redacting(conninfo) }

    /// The passwords a connection string holds: a URL's `user:password@`, and `password=` in a URL's
    /// query or in `key=value` form.
    static func passwords(in conninfo: String) -> [String] {
        var result: [String] = []
        if let scheme = conninfo.range(of: "://") {
            let rest = conninfo[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result.append(String(authority[authority.index(after: colon)..<at]))
            }
        }
        // `password=…` (URL query or key=value; quoted values of the key=value form included).
        var search = conninfo[...]
        while let key = search.range(of: "password", options: .caseInsensitive) {
            var index = key.upperBound
            while index < search.endIndex, search[index] == " " { index = search.index(after: index) }
            guard index < search.endIndex, search[index] == "=" else { search = search[key.upperBound...]; continue }
            index = search.index(after: index)
            while index < search.endIndex, search[index] == " " { index = search.index(after: index) }
            let value: Substring
            if index < search.endIndex, search[index] == "'" {
                let start = search.index(after: index)
                value = search[start...].prefix { $0 != "'" }
            } else {
                value = search[index...].prefix { $0 != "&" && $0 != " " }
            }
            if !value.isEmpty { result.append(String(value)) }
            search = search[value.endIndex...]
        }
        return result
    }
}
