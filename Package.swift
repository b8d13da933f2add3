// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

/// Strata: SwiftData-style persistence for Swift on Linux, with the storage backend as a plugin.
///
/// The core (`Strata`) knows no backend; each backend imports only the core; the conformance suite
/// (`StrataConformance`) imports only the core and is shipped so third parties can run it.
/// Debug builds (`swift build`, `swift test`, `make test`) check Strata's internal invariants; release
/// builds do not. A define, not an unsafe flag, so it also applies when Strata is a dependency.
let internalChecks: [SwiftSetting] = [.define("STRATA_INTERNAL_CHECKS", .when(configuration: .debug))]

let package = Package(
    name: "Strata",
    // What the code needs: `Mutex` and `Atomic` (Synchronization) and Observation. Linux is what is
    // built and tested; the Apple platforms are declared but untested (docs/public-api.md).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataMemory", targets: ["StrataMemory"]),
        .library(name: "StrataConformance", targets: ["StrataConformance"]),
        .library(name: "StrataSQLite", targets: ["StrataSQLite"]),
        .library(name: "StrataJSON", targets: ["StrataJSON"]),
        .library(name: "StrataCSV", targets: ["StrataCSV"]),
        .library(name: "StrataLMDB", targets: ["StrataLMDB"]),
        .library(name: "StrataXML", targets: ["StrataXML"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        .library(name: "StrataModel", targets: ["StrataModel"]),
        .executable(name: "strata", targets: ["StrataCLI"]),
        .executable(name: "strata-model-bench", targets: ["StrataModelBench"]),
        .executable(name: "strata-custom-store", targets: ["StrataCustomStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        // `make docs` (swift package generate-documentation); a command plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // STRATA_INTERNAL_CHECKS: invariant checks in debug builds (tests), none in release (docs/architecture.md).
        .target(name: "Strata", path: "Sources/Strata", swiftSettings: internalChecks),
        .target(name: "StrataMemory", dependencies: ["Strata"], path: "Backends/Memory"),
        .target(name: "StrataConformance", dependencies: ["Strata"], path: "Conformance/StrataConformance"),
        .systemLibrary(name: "CSQLite", path: "Backends/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The mapping, query builder and save transaction the SQL backends share, over a dialect
        // (not a product: SQL backends link it in; docs/architecture.md, "SQL backends share one mapping layer").
        .target(name: "StrataSQLSupport", dependencies: ["Strata"], path: "Backends/SQLSupport", swiftSettings: internalChecks),
        .target(name: "StrataSQLite", dependencies: ["Strata", "CSQLite", "StrataSQLSupport"], path: "Backends/SQLite", swiftSettings: internalChecks),
        // The durable-file code the file backends share (not a product: backends link it in).
        .target(name: "StrataFileSupport", dependencies: ["Strata"], path: "Backends/FileSupport"),
        .target(name: "StrataJSON", dependencies: ["Strata", "StrataFileSupport"], path: "Backends/JSON"),
        .target(name: "StrataCSV", dependencies: ["Strata", "StrataFileSupport"], path: "Backends/CSV"),
        .systemLibrary(name: "CLMDB", path: "Backends/CLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        // CRC32C for the LMDB record checksum (record version 3, docs/formats/lmdb.md): the CPU's
        // `crc32` instruction enabled per function and chosen at run time, a table otherwise; no flags.
        .target(name: "CStrataChecksum", path: "Backends/CStrataChecksum"),
        .target(name: "StrataLMDB", dependencies: ["Strata", "CLMDB", "CStrataChecksum", "StrataFileSupport"], path: "Backends/LMDB", swiftSettings: internalChecks),
        .systemLibrary(name: "CLibXML2", path: "Backends/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "StrataXML", dependencies: ["Strata", "StrataFileSupport", "CLibXML2"], path: "Backends/XML", swiftSettings: internalChecks),
        .systemLibrary(name: "CLibPQ", path: "Backends/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "StrataPostgres", dependencies: ["Strata", "CLibPQ", "StrataSQLSupport"], path: "Backends/Postgres", swiftSettings: internalChecks),
        // The raw C baselines `strata bench --baseline` measures against: only the tools link them, no
        // library product (unsafe flags are refused in a library product a dependent uses by version).
        .target(name: "CXMLBaseline", dependencies: ["CLibXML2"], path: "Benchmarks/CBaselines/CXMLBaseline", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("xml2")]),
        .target(name: "CLMDBBaseline", dependencies: ["CStrataBaselines"], path: "Benchmarks/CBaselines/CLMDBBaseline", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("lmdb")]),
        .target(name: "CPostgresBaseline", dependencies: ["CStrataBaselines", "CLibPQ"], path: "Benchmarks/CBaselines/CPostgresBaseline", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("pq")]),
        .target(
            name: "CStrataBaselines", dependencies: ["CSQLite"], path: "Benchmarks/CBaselines/CStrataBaselines",
            linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("m")]),
        .macro(
            name: "StrataModelMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            path: "Sources/StrataModelMacros"
        ),
        // The app-facing layer opens SwiftData's ModelConfiguration on the built-in backends
        // (docs/architecture.md, "The model layer opens the built-in backends"); the core stays backend-free.
        .target(
            name: "StrataModel",
            dependencies: ["Strata", "StrataModelMacros", "StrataMemory", "StrataSQLite", "StrataJSON", "StrataCSV", "StrataLMDB", "StrataXML", "StrataFileSupport"],
            path: "Sources/StrataModel", swiftSettings: internalChecks),
        // The one list of built-in backends (names, factories) that the tools, examples and tests read.
        .target(
            name: "StrataBuiltinBackends",
            dependencies: ["Strata", "StrataMemory", "StrataConformance", "StrataSQLite", "StrataJSON", "StrataCSV", "StrataLMDB", "StrataXML", "StrataFileSupport", "StrataPostgres"],
            path: "Sources/StrataBuiltinBackends"
        ),
        // What `strata` and `strata-model-bench` share: the measured step.
        .target(
            name: "StrataToolSupport",
            dependencies: ["Strata", "StrataConformance", "StrataBuiltinBackends", "CStrataBaselines"],
            path: "Sources/StrataToolSupport"
        ),
        // `strata` links no model layer, so its release build (make report) compiles no swift-syntax.
        .executableTarget(
            name: "StrataCLI",
            dependencies: [
                "Strata", "StrataMemory", "StrataConformance", "StrataSQLite", "StrataJSON", "StrataCSV", "StrataLMDB", "StrataXML", "CSQLite", "CLMDBBaseline", "CXMLBaseline", "CPostgresBaseline", "CStrataBaselines", "StrataToolSupport", "StrataBuiltinBackends",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/StrataCLI",
            exclude: ["ModelBench", "CustomStore"]
        ),
        // `strata-model-bench` (also `strata model-bench`): the workload through the model layer.
        .executableTarget(
            name: "StrataModelBench",
            dependencies: ["Strata", "StrataConformance", "StrataModel", "StrataToolSupport", "StrataBuiltinBackends", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/StrataCLI/ModelBench"
        ),
        // `strata-custom-store` (also `strata conformance --backend wwdc-json`): the suite on stores
        // written to SwiftData's custom-store protocol (Examples/CustomStore), through the model layer.
        .target(name: "CustomStoreExample", dependencies: ["StrataModel", "StrataMemory", "StrataConformance"], path: "Examples/CustomStore/CustomStoreExample"),
        .executableTarget(
            name: "StrataCustomStore",
            dependencies: ["CustomStoreExample", "StrataConformance", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/StrataCLI/CustomStore"),
        // What the tests share: child processes read line by line, the built tools, the killed-writer
        // check, a migration paused inside its stage (test-only: no product, no library depends on it).
        .target(name: "StrataTestSupport", dependencies: ["StrataConformance"], path: "Tests/StrataTestSupport"),
        .testTarget(name: "StrataTests", dependencies: ["Strata"], path: "Tests/StrataTests"),
        .testTarget(name: "StrataFileSupportTests", dependencies: ["Strata", "StrataFileSupport", "StrataTestSupport"], path: "Tests/StrataFileSupportTests"),
        .testTarget(
            name: "StrataMemoryTests",
            dependencies: ["Strata", "StrataMemory", "StrataConformance"],
            path: "Tests/StrataMemoryTests"
        ),
        .testTarget(
            name: "StrataSQLiteTests",
            dependencies: ["Strata", "StrataSQLite", "StrataConformance", "StrataTestSupport"],
            path: "Tests/StrataSQLiteTests"
        ),
        .testTarget(
            name: "StrataJSONTests",
            dependencies: ["Strata", "StrataJSON", "StrataFileSupport", "StrataConformance", "StrataTestSupport"],
            path: "Tests/StrataJSONTests"
        ),
        .testTarget(
            name: "StrataCSVTests",
            dependencies: ["Strata", "StrataCSV", "StrataFileSupport", "StrataConformance", "StrataTestSupport"],
            path: "Tests/StrataCSVTests"
        ),
        .testTarget(
            name: "StrataLMDBTests",
            dependencies: ["Strata", "StrataLMDB", "CStrataChecksum", "StrataConformance", "StrataTestSupport"],
            path: "Tests/StrataLMDBTests"
        ),
        .testTarget(
            name: "StrataXMLTests",
            dependencies: ["Strata", "StrataXML", "StrataFileSupport", "StrataConformance", "StrataTestSupport"],
            path: "Tests/StrataXMLTests"
        ),
        // Needs the server `make test` starts (Tests/Postgres/cluster.sh); without it the tests say so.
        .testTarget(name: "StrataPostgresTests", dependencies: ["Strata", "StrataPostgres", "StrataSQLSupport", "StrataConformance", "StrataBuiltinBackends", "StrataTestSupport"], path: "Tests/StrataPostgresTests"),
        .testTarget(
            name: "StrataCrossBackendTests",
            dependencies: ["Strata", "StrataMemory", "StrataSQLite", "StrataJSON", "StrataCSV", "StrataLMDB", "StrataXML", "StrataPostgres", "StrataConformance", "StrataBuiltinBackends", "StrataFileSupport", "StrataTestSupport"],
            path: "Tests/StrataCrossBackendTests"
        ),
        // The worked example of docs/writing-a-backend.md: a test-only file backend, run in CI.
        .testTarget(name: "StrataExampleBackendTests", dependencies: ["Strata", "StrataConformance"], path: "Tests/StrataExampleBackendTests"),
        .testTarget(
            name: "StrataModelTests",
            dependencies: ["StrataModel", "StrataMemory", "StrataSQLite", "StrataJSON", "StrataCSV", "StrataLMDB", "StrataXML", "StrataBuiltinBackends"],
            path: "Tests/StrataModelTests"
        ),
        .testTarget(
            name: "CustomStoreTests",
            dependencies: ["CustomStoreExample", "StrataModel", "StrataMemory", "StrataConformance"],
            path: "Tests/CustomStoreTests"),
        .testTarget(
            name: "StrataModelMacrosTests",
            dependencies: [
                "StrataModelMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ],
            path: "Tests/StrataModelMacrosTests"
        ),
        .testTarget(
            name: "StrataConformanceTests",
            dependencies: ["Strata", "StrataMemory", "StrataConformance", "StrataTestSupport"],
            path: "Tests/StrataConformanceTests"
        ),
        // The runnable examples (Examples/, docs/examples.md): each a small library with the logic, so
        // ExamplesTests runs it on every backend, and an executable taking --backend and --path.
        .target(
            name: "ExampleSupport",
            dependencies: ["StrataModel", "StrataMemory", "StrataBuiltinBackends", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/ExampleSupport"),
        .target(name: "TripsExample", dependencies: ["ExampleSupport"], path: "Examples/Trips/TripsExample"),
        .executableTarget(name: "trips", dependencies: ["TripsExample"], path: "Examples/Trips/trips"),
        .target(name: "BooksExample", dependencies: ["ExampleSupport"], path: "Examples/Books/BooksExample"),
        .executableTarget(name: "books", dependencies: ["BooksExample"], path: "Examples/Books/books"),
        .target(name: "NotesExample", dependencies: ["ExampleSupport"], path: "Examples/Notes/NotesExample"),
        .executableTarget(name: "notes", dependencies: ["NotesExample"], path: "Examples/Notes/notes"),
        .target(name: "PixarExample", dependencies: ["ExampleSupport"], path: "Examples/Pixar/PixarExample", resources: [.copy("movies.json")]),
        .executableTarget(name: "pixar", dependencies: ["PixarExample"], path: "Examples/Pixar/pixar"),
        .target(name: "MigrationsExample", dependencies: ["ExampleSupport"], path: "Examples/Migrations/MigrationsExample"),
        .executableTarget(name: "migrations", dependencies: ["MigrationsExample"], path: "Examples/Migrations/migrations"),
        .target(name: "HistoryExample", dependencies: ["ExampleSupport"], path: "Examples/History/HistoryExample"),
        .executableTarget(name: "history", dependencies: ["HistoryExample"], path: "Examples/History/history"),
        .testTarget(name: "ExamplesTests", dependencies: ["TripsExample", "BooksExample", "NotesExample", "PixarExample", "MigrationsExample", "HistoryExample", "StrataTestSupport"], path: "Tests/ExamplesTests"),
    ],
    swiftLanguageModes: [.v6]
)
