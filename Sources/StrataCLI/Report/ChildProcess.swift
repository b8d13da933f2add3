import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs this very executable again as a child process (`strata conformance …`, `strata bench …`), so
/// each backend's crash, hang or memory stays in its own process and its peak-memory figure is its own.
///
/// Output goes to temporary files rather than pipes, so a child that writes a lot to both streams
/// cannot block on a full pipe while the parent waits for it.
struct ChildProcess {
    /// How a child ended.
    struct Outcome {
        /// What it printed on standard output.
        var output: Data
        /// The last lines it printed on standard error.
        var errorTail: String
        /// Its exit status, or the signal that ended it.
        var status: Int32
        /// Whether it was ended by a signal (a crash) rather than exiting.
        var signaled: Bool
        /// Whether the parent ended it after the time limit.
        var timedOut: Bool

        /// One line saying how the child failed, for a report's failure column.
        var failureText: String {
            let how = timedOut ? "was stopped after the time limit" : signaled ? "crashed (signal \(status))" : "exited with status \(status)"
            return errorTail.isEmpty ? how : "\(how): \(errorTail)"
        }
    }

    /// The running executable (`/proc/self/exe`), so children are the same build as the parent.
    static var executable: URL {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path)
    }

    let arguments: [String]
    /// The longest the child may run before it is killed (SIGKILL: a child started with SIGTERM
    /// blocked, as a process started from a test thread is, would ignore `terminate()` and run on).
    let timeLimit: Duration

    /// Runs the child to its end, calling `tick` with the elapsed time about four times a second.
    func run(tick: (Duration) -> Void) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("strata-report-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }

        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let start = ContinuousClock.now
        var timedOut = false
        while process.isRunning {
            let elapsed = ContinuousClock.now - start
            if elapsed >= timeLimit, !timedOut {  // checked before the first wait: a limit of 0 stops the child at once
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
            }
            tick(elapsed)
            Thread.sleep(forTimeInterval: 0.25)
        }
        process.waitUntilExit()
        let errorText = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        let tail = errorText.split(separator: "\n").filter { !$0.hasPrefix("note: this is a debug build") }.suffix(3).joined(separator: " / ")
        return Outcome(
            output: (try? Data(contentsOf: outURL)) ?? Data(), errorTail: tail, status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
    }
}
