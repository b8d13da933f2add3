/// Thrown by a case body when the backend broke a promise; the message says what and how.
struct CaseFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Thrown by the harness when a case needs a capability the backend lacks.
struct CaseSkip: Error {
    let reason: String
}
