import Foundation

/// A child process a test runs: to its end (`run`), or beside the test, read line by line from its
/// standard output and written to on its standard input (`init`). The tests wait on what the child
/// prints or on its exit, never on time.
public final class ChildProcess: @unchecked Sendable {
    /// Where a child's standard error goes.
    public enum Errors: Sendable {
        /// Dropped.
        case discarded
        /// To this process's standard error (the test log).
        case inherited
        /// Kept apart and returned (`Finished.errors`); with `init`, dropped.
        case captured
        /// Into the same pipe as standard output, in the order written.
        case merged
    }

    /// How a child that ran to its end ended, and what it printed.
    public struct Finished: Sendable {
        /// Its exit status (or the signal that ended it).
        public let status: Int32
        /// Its standard output.
        public let output: String
        /// Its standard error, when captured (`Errors.captured`); empty otherwise.
        public let errors: String
    }

    /// The running process (its identifier, to send it a signal).
    public let process = Process()
    /// Its standard output, line by line.
    public let lines: PipeLines
    private let input = Pipe(), output = Pipe()

    /// Starts `executable` with `arguments`, its standard input and output pipes of this object and its
    /// standard error as `errors` says; `environment` is added to this process's.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], errors: Errors = .discarded) throws {
        Self.configure(process, executable, arguments, environment)
        process.standardInput = input
        process.standardOutput = output
        switch errors {
        case .discarded, .captured: process.standardError = FileHandle.nullDevice
        case .inherited: process.standardError = FileHandle.standardError
        case .merged: process.standardError = output
        }
        lines = PipeLines(output.fileHandleForReading)
        try process.run()
    }

    /// The next line of its standard output, blocking; `nil` at its end.
    public func next() -> String? { lines.next() }

    /// Writes `text` to its standard input.
    public func send(_ text: String) { try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

    /// Closes its standard input (a child reading it sees the end of the file).
    public func closeInput() { try? input.fileHandleForWriting.close() }

    /// Closes its standard input, reads its output to the end and waits for it; its exit status.
    @discardableResult
    public func finish() -> Int32 {
        closeInput()
        while lines.next() != nil {}
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `executable` with `arguments` to its end, `input` on its standard input (nothing if nil)
    /// and `environment` added to this process's; its exit status and what it printed.
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], errors: Errors = .captured) throws -> Finished {
        let process = Process()
        configure(process, executable, arguments, environment)
        let output = Pipe(), errorPipe = Pipe(), stdin = Pipe()
        process.standardOutput = output
        switch errors {
        case .discarded: process.standardError = FileHandle.nullDevice
        case .inherited: process.standardError = FileHandle.standardError
        case .captured: process.standardError = errorPipe
        case .merged: process.standardError = output
        }
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        // Standard error is drained beside standard output, so that neither pipe fills and blocks the child.
        let errorText: Drain? = if errors == .captured { Drain(errorPipe.fileHandleForReading) } else { nil }
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let errorsPrinted = errorText?.text() ?? ""
        process.waitUntilExit()
        return Finished(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self), errors: errorsPrinted)
    }

    /// A program found on `PATH` (as a shell would), or `/usr/bin/<name>` when it is on none.
    public static func onPath(_ name: String) -> URL {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for folder in folders {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin").appendingPathComponent(name)
    }

    private static func configure(_ process: Process, _ executable: URL, _ arguments: [String], _ environment: [String: String]) {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    }
}

/// Reads a file handle to its end on a thread of its own.
private final class Drain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    /// What was read, once the end is reached.
    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
