// swift-tools-version: 6.0
import PackageDescription

/// A package outside Strata's own manifest that depends on Strata the way a stranger would: by version
/// (`from:`), through a URL. `make consumer` (and, up to planning the build, `make test`) copies the
/// repository to a temporary folder, tags it with the version of `Sources/Strata/StrataVersion.swift`
/// and passes its `file://` URL and that version in STRATA_URL and STRATA_VERSION.
let url = Context.environment["STRATA_URL"] ?? "file:///tmp/strata-consumer/strata"
let version = Context.environment["STRATA_VERSION"].flatMap { Version($0) } ?? "0.4.0"

let package = Package(
    name: "StrataConsumer",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(url: url, from: version),
    ],
    targets: [
        // Every library product of Strata, by product name.
        .executableTarget(
            name: "StrataConsumer",
            dependencies: [
                .product(name: "Strata", package: "strata"),
                .product(name: "StrataMemory", package: "strata"),
                .product(name: "StrataSQLite", package: "strata"),
                .product(name: "StrataJSON", package: "strata"),
                .product(name: "StrataCSV", package: "strata"),
                .product(name: "StrataLMDB", package: "strata"),
                .product(name: "StrataXML", package: "strata"),
                .product(name: "StrataPostgres", package: "strata"),
                .product(name: "StrataModel", package: "strata"),
                .product(name: "StrataConformance", package: "strata"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
