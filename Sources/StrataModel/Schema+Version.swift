extension Schema {
    /// A semantic version of a schema, as SwiftData's `Schema.Version`: what `Schema(_:version:)`
    /// and a `VersionedSchema`'s `versionIdentifier` carry.
    ///
    /// ```swift
    /// let schema = Schema([Trip.self], version: Schema.Version(1, 2, 0))
    /// ```
    ///
    /// The version is not part of the store's schema fingerprint: two schemas of the same shape
    /// are the same schema to a store whatever their versions.
    public struct Version: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
        /// The major version according to semantic versioning.
        public let major: Int
        /// The minor version.
        public let minor: Int
        /// The patch version.
        public let patch: Int

        /// Makes a version from its three components; negative components are clamped to zero
        /// (SwiftData states `major >= 0 && minor >= 0 && patch >= 0` as a precondition; a version
        /// is not worth stopping a program for).
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = max(0, major)
            self.minor = max(0, minor)
            self.patch = max(0, patch)
        }

        /// `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }

        /// Orders versions by major, then minor, then patch.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
    }
}
