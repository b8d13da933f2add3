/// The version of this package, in one place: `strata --version`, the report, `strata bench` and
/// the conformance reports print it, and `make consumer` tags its copy of the repository with it.
///
/// Semantic versioning (docs/public-api.md says what it covers); CHANGELOG.md lists each version's
/// changes. Raise it here, in the CHANGELOG's heading and nowhere else.
public enum StrataVersion {
    /// `major.minor.patch` of this package.
    public static let current = "0.4.0"
}
