import ArgumentParser
import Foundation

/// `strata model-bench …`: runs the sibling executable `strata-model-bench` (built beside `strata`)
/// with the same arguments, as `git foo` runs `git-foo`. The model bench is a separate executable so
/// that `strata` does not link the model layer, whose macros make a release build compile swift-syntax.
struct ModelBenchForwarder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model-bench",
        abstract: "Run the standard workload through the model layer beside the store level (runs strata-model-bench; see its --help).")

    @Argument(parsing: .captureForPassthrough, help: "Arguments for strata-model-bench.") var arguments: [String] = []

    func run() throws {
        let sibling = ChildProcess.executable.deletingLastPathComponent().appendingPathComponent("strata-model-bench").path
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw ValidationError("strata model-bench runs \(sibling), which is not built. Build it with `make model-bench` (swift build -c release --product strata-model-bench).")
        }
        let argv = ([sibling] + arguments).map { strdup($0) } + [nil]
        execv(sibling, argv)
        throw ValidationError("Could not run \(sibling): \(String(cString: strerror(errno))).")
    }
}

