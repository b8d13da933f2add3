import Foundation
import StrataBuiltinBackends
import StrataConformance

/// One `strata concurrent-writer` process (`ConcurrentWorkload`), driven through its standard input
/// and read line by line from its standard output: the tests wait on its lines, never on time.
final class PostgresWorker: @unchecked Sendable {
    /// The `strata` tool built beside the tests (`swift build --build-tests` links it).
    static let strata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/strata")

    let process = Process()
    private let input = Pipe(), output = Pipe()
    private var buffer: [UInt8] = []
    /// Every line read so far.
    private(set) var lines: [String] = []

    /// Starts worker `worker` on the store of `directory` on the server `url`; `launcher` runs it
    /// through another program (`ip netns exec NAME`).
    init(directory: URL, url: String, worker: Int, saves: Int, seed: UInt64, toleratesUnavailable: Bool = false, launcher: [String] = []) throws {
        let arguments = ["concurrent-writer", "--backend", "postgres", "--path", directory.path, "--url", url, "--worker", String(worker), "--saves", String(saves), "--seed", String(seed)]
            + (toleratesUnavailable ? ["--tolerates-unavailable"] : [])
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [Self.strata.path] + arguments
        } else {
            process.executableURL = Self.strata
            process.arguments = arguments
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    /// Creates the shared records of `ConcurrentWorkload` in the store (a process of its own, so it
    /// opens the store as the workers do).
    static func prepare(directory: URL, url: String) throws {
        let process = Process()
        process.executableURL = strata
        process.arguments = ["concurrent-writer", "--backend", "postgres", "--path", directory.path, "--url", url, "--prepare"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    }

    /// The next line, blocking; nil at the end of the output.
    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                lines.append(line)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(contentsOf: chunk)
        }
    }

    /// Reads until a line satisfies `found` (true) or the output ends (false).
    @discardableResult
    func read(until found: (String) -> Bool) -> Bool {
        while let line = next() { if found(line) { return true } }
        return false
    }

    /// Sends one line to its standard input (`go`: start, or go on after an unavailable server).
    func send(_ line: String) { try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }

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
