// swift-tools-version: 6.1
import PackageDescription

/// The peers benchmark (`make peers`, docs/benchmarks.md, "Peers"): the standard workload on SQLite
/// through Strata's model layer, GRDB's records (hand-written and Codable) and raw C, in one process.
///
/// A package of its own so that no user of Strata ever resolves GRDB: Strata's `Package.swift` does
/// not know this one. It depends on Strata by path; its `.build` stays out of git (.gitignore).
/// `PeersCBaselines` is the same C baseline `strata bench --baseline` runs (a symlink to
/// Benchmarks/CBaselines/CStrataBaselines), and the model workload is the same source file
/// `strata-model-bench` runs (symlinks into Sources/StrataCLI/ModelBench), so the figures match theirs.
let package = Package(
    name: "StrataPeers",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .target(name: "PeersCBaselines", path: "Sources/PeersCBaselines", linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("m")]),
        .executableTarget(
            name: "StrataPeers",
            dependencies: [
                "PeersCBaselines",
                .product(name: "Strata", package: "Strata"),
                .product(name: "StrataModel", package: "Strata"),
                .product(name: "StrataSQLite", package: "Strata"),
                .product(name: "StrataLMDB", package: "Strata"),
                .product(name: "StrataConformance", package: "Strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/StrataPeers"),
    ]
)
