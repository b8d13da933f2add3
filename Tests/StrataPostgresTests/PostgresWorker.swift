import Foundation
import StrataBuiltinBackends
import StrataConformance
import StrataTestSupport

/// One `strata concurrent-writer` process (`ConcurrentWorkload`), driven through its standard input
/// and read line by line from its standard output: the tests wait on its lines, never on time.
final class PostgresWorker: @unchecked Sendable {
    /// The `strata` tool built beside the tests (`swift build --build-tests` links it).
    static var strata: URL { BuiltProducts.strata }

    private let child: ChildProcess
    /// The running process.
    var process: Process { child.process }
    /// Every line read so far.
    private(set) var lines: [String] = []

    /// Starts worker `worker` on the store of `directory` on the server `url`; `launcher` runs it
    /// through another program (`ip netns exec NAME`).
    /// With `updates`, its saves are one-record updates with history on (`strata concurrent-writer --updates`).
    init(directory: URL, url: String, worker: Int, saves: Int, seed: UInt64, toleratesUnavailable: Bool = false, updates: Bool = false, launcher: [String] = []) throws {
        let arguments = ["concurrent-writer", "--backend", "postgres", "--path", directory.path, "--url", url, "--worker", String(worker), "--saves", String(saves), "--seed", String(seed)]
            + (toleratesUnavailable ? ["--tolerates-unavailable"] : []) + (updates ? ["--updates"] : [])
        if let program = launcher.first {
            child = try ChildProcess(URL(fileURLWithPath: program), Array(launcher.dropFirst()) + [Self.strata.path] + arguments, errors: .inherited)
        } else {
            child = try ChildProcess(Self.strata, arguments, errors: .inherited)
        }
    }

    /// Creates the shared records of `ConcurrentWorkload` in the store (a process of its own, so it
    /// opens the store as the workers do).
    static func prepare(directory: URL, url: String) throws {
        let run = try ChildProcess.run(strata, ["concurrent-writer", "--backend", "postgres", "--path", directory.path, "--url", url, "--prepare"], errors: .inherited)
        guard run.status == 0 else { throw CocoaError(.executableLoad) }
    }

    /// The next line, blocking; nil at the end of the output.
    func next() -> String? {
        guard let line = child.next() else { return nil }
        lines.append(line)
        return line
    }

    /// Reads until a line satisfies `found` (true) or the output ends (false).
    @discardableResult
    func read(until found: (String) -> Bool) -> Bool {
        while let line = next() { if found(line) { return true } }
        return false
    }

    /// Sends one line to its standard input (`go`: start, or go on after an unavailable server).
    func send(_ line: String) { child.send(line + "\n") }

    /// Reads to the end and waits for the process; its exit status.
    func finish() -> Int32 {
        while next() != nil {}
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The lines that acknowledge a save (everything but `ready`, `skip`, `unavailable …` and `done …`).
    var acknowledged: [String] {
        lines.filter { !$0.hasPrefix("ready") && !$0.hasPrefix("skip") && !$0.hasPrefix("unavailable") && !$0.hasPrefix("done") }
    }

    /// A folder for a store (its namespace on the server is derived from the path, as the tools do).
    static func storeDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("strata-pg-workers-\(UUID().uuidString)")
    }

    /// The namespace the `postgres` backend uses for `directory`.
    static func namespace(_ directory: URL) -> String { PostgresServer.namespace(for: directory) }
}
