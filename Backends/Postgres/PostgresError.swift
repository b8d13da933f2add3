import CLibPQ
import Strata

/// A failure reported by libpq or the server, before it is mapped onto a `StrataError`: the SQLSTATE,
/// the server's message (passwords already redacted) and, for a constraint, the constraint's name.
struct PostgresError: Error, CustomStringConvertible {
    /// The five-character SQLSTATE (`08001` when libpq itself failed to connect or send).
    let sqlstate: String
    /// The primary message.
    let message: String
    /// The violated constraint, for class 23.
    let constraint: String?

    /// SQLSTATE for failures libpq reports without one (no server to ask): "unable to establish connection".
    static let clientConnectionFailure = "08001"

    init(sqlstate: String, message: String, constraint: String? = nil) {
        self.sqlstate = sqlstate
        self.message = message
        self.constraint = constraint
    }

    /// The error of a failed result (`PQresultStatus` fatal); libpq's connection message when the
    /// result carries no SQLSTATE (the connection was lost).
    init(result: OpaquePointer?, connection: OpaquePointer, settings: PostgresConnectionSettings) {
        func field(_ code: Character) -> String? {
            guard let result, let text = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: text)
        }
        let state = field("C")
        let text = field("M") ?? String(cString: PQerrorMessage(connection))
        self.init(
            sqlstate: state ?? (PQstatus(connection) == CONNECTION_BAD ? "08006" : Self.clientConnectionFailure),
            message: settings.redacting(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            constraint: field("n"))
    }

    var description: String { "PostgreSQL \(sqlstate): \(message)" }

    /// The native error kept on the mapped `StrataError`.
    var native: StrataError.NativeError { .init(.postgres, code: PostgresSQLState.number(of: sqlstate), message: "\(sqlstate) \(message)") }

    /// Whether a retry of the whole transaction may succeed: a serialization failure or a deadlock.
    var isRetryable: Bool { sqlstate == "40001" || sqlstate == "40P01" }

    /// Whether the connection is gone (class 08, or the server shutting down: 57P01–57P03).
    var isConnectionLost: Bool { sqlstate.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlstate) }

    /// The core's error for this failure, the SQLSTATE kept as its `native` error (constraint
    /// failures are mapped with their entity and records by the caller, which knows the schema).
    func strataError(store: String) -> StrataError {
        mapped(store: store).with(native: native)
    }

    private func mapped(store: String) -> StrataError {
        let state = sqlstate
        switch state {
        case "23505": return SaveRules.uniqueViolation(entity: nil, properties: [], detail: "PostgreSQL: \(message)")
        case "23502": return StrataError(.missingRequiredValue, "A required value is missing (\(message)).")
        case "23503": return StrataError(.unknownIdentifier, "A relationship names a record the store does not hold (\(message)).")
        case "25006": return StrataError(.readOnlyStore, "The PostgreSQL server accepts no writes on this connection (\(message)); saves need the primary.", file: store)
        case "40001", "40P01", "55P03", "57014":
            return StrataError(.storeLocked, "Other transactions kept conflicting with this one past the retries (\(message)); retry later.", file: store)
        case "XX001", "XX002": return StrataError(.corruptStore, "The PostgreSQL server reports damaged data (\(message)).", file: store)
        case "3D000", "3F000": return StrataError(.storeUnavailable, "The database or schema does not exist (\(message)).", file: store)
        default: break
        }
        if isConnectionLost || state.hasPrefix("28") {
            return StrataError(.storeUnavailable, "The PostgreSQL server cannot be reached (\(message)); retry when it is back.", file: store)
        }
        if state.hasPrefix("22") { return StrataError(.typeMismatch, "PostgreSQL refused a value (\(message)).", file: store) }
        if state.hasPrefix("53") || state.hasPrefix("58") { return StrataError(.ioFailure, "The PostgreSQL server could not store the data (\(message)).", file: store) }
        return StrataError(.ioFailure, "PostgreSQL failed: \(message).", file: store)
    }
}
