extension StrataError {
    /// The failure as the library underneath reported it: SQLite's extended result code, LMDB's return
    /// code, or the C library's `errno`, kept beside the taxonomy's `code` so nothing the native layer
    /// said is lost (`SQLITE_IOERR_FSYNC` and `SQLITE_FULL` both map onto `.ioFailure`).
    ///
    /// ```swift
    /// catch let error as StrataError where error.native?.domain == .sqlite {
    ///     print(error.native!.code)   // 13: SQLITE_FULL
    /// }
    /// ```
    public struct NativeError: Sendable, Hashable, CustomStringConvertible {
        /// Which library's codes `code` is one of.
        public var domain: Domain
        /// The library's number for the failure (for SQLite the extended result code).
        public var code: Int
        /// The library's own words for it (`sqlite3_errmsg`, `mdb_strerror`, `strerror`).
        public var message: String

        /// A native failure.
        public init(_ domain: Domain, code: Int, message: String) {
            self.domain = domain
            self.code = code
            self.message = message
        }

        /// `domain code: message`, e.g. `sqlite 13: database or disk is full`.
        public var description: String { "\(domain.rawValue) \(code): \(message)" }

        /// The library a native code comes from. Open for extension, as `StrataError.Code` is.
        public struct Domain: RawRepresentable, Hashable, Sendable {
            /// The domain's name as descriptions show it.
            public let rawValue: String
            /// A domain from its name.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// SQLite's (extended) result codes.
            public static let sqlite = Domain(rawValue: "sqlite")
            /// LMDB's return codes (its own `MDB_*` codes and the `errno` values it passes on).
            public static let lmdb = Domain(rawValue: "lmdb")
            /// The C library's `errno`.
            public static let errno = Domain(rawValue: "errno")
        }
    }

    /// This error with `native` set (backends attach it where they map a native failure).
    public func with(native: NativeError) -> StrataError {
        var copy = self
        copy.native = native
        return copy
    }
}
