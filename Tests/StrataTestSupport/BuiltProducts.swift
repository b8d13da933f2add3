import Foundation

/// The executables `swift build --build-tests` puts beside the tests, in the debug build folder.
public enum BuiltProducts {
    /// The package's root folder (this file is `Tests/StrataTestSupport/BuiltProducts.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The debug build of the executable product `name` (`.build/debug/<name>`).
    public static func url(_ name: String) -> URL { root.appendingPathComponent(".build/debug/\(name)") }

    /// The `strata` tool.
    public static var strata: URL { url("strata") }
}
