extension Schema {
    /// A schema's version: a semantic-version triple, as SwiftData's `Schema.Version`.
    ///
    /// It names a version of the application's models; it does not take part in the fingerprint
    /// (two versions may declare the same entities), and a store records it beside its schema
    /// (`RecordedSchema`). A store of a version newer than the one it is opened with is refused
    /// with both versions named; a store recorded before versions existed has none.
    ///
    /// ```swift
    /// let v2 = Schema.Version(2, 0, 0)
    /// ```
    public struct Version: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
        /// The major version number.
        public let major: Int
        /// The minor version number.
        public let minor: Int
        /// The patch version number.
        public let patch: Int

        /// A version from its three numbers (each at least 0; a negative number is taken as 0).
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = max(0, major)
            self.minor = max(0, minor)
            self.patch = max(0, patch)
        }

        /// `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }

        /// Orders by major, then minor, then patch.
        public static func < (a: Version, b: Version) -> Bool {
            (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }
    }
}
