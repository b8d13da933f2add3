import ArgumentParser
import Foundation

/// Custom stores (SwiftData's `DataStore` protocol) live in the sibling executable
/// `strata-custom-store`, which links the model layer; `strata conformance --backend wwdc-json`
/// runs it the way `strata model-bench` runs `strata-model-bench`.
enum CustomStoreForwarder {
    /// The custom stores `strata-custom-store` knows (CustomStoreFactories.names).
    static let names = ["wwdc-json", "swiftdata-memory"]

    /// Replaces this process with `strata-custom-store conformance` for `backend`.
    static func conformance(backend: String, format: String) throws -> Never {
        let sibling = ChildProcess.executable.deletingLastPathComponent().appendingPathComponent("strata-custom-store").path
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw ValidationError("The custom store '\(backend)' runs in \(sibling), which is not built. Build it with `swift build --product strata-custom-store` (add -c release beside a release strata).")
        }
        let arguments: [String] = [sibling, "conformance", "--backend", backend, "--format", format]
        let argv = arguments.map { strdup($0) } + [nil]
        execv(sibling, argv)
        throw ValidationError("Could not run \(sibling): \(String(cString: strerror(errno))).")
    }
}
