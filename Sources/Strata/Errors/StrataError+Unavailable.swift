extension StrataError.Code {
    /// The store's server cannot be reached (stopped, restarting, the connection dropped, refused
    /// credentials): nothing was changed by the failed call; retry once the server is back. Stores
    /// that talk to a server (PostgreSQL) reconnect by themselves on the next call.
    public static let storeUnavailable = StrataError.Code(rawValue: "storeUnavailable")
}
