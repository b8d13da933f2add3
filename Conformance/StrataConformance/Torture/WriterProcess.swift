import Foundation

/// A crash-workload writer running as a child process, whose `saved <g>` lines are read as they come.
///
/// Everything that waits on it waits for a line (an observed event), never for a timer; the
/// watchdog only ends a writer that stopped reporting for `stallLimit`, so a hang fails a run
/// instead of blocking it forever.
final class WriterProcess {
    let process = Process()
    private let output = Pipe()
    private let reader: LineReader
    private let watchdog: Watchdog
    /// The last generation the writer reported as saved (−1 before any).
    private(set) var reported = -1

    init(_ executable: URL, _ arguments: [String], stallLimit: Duration) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        reader = LineReader(output.fileHandleForReading)
        try process.run()
        watchdog = Watchdog(process: process, limit: stallLimit)
    }

    /// Reads reports until generation `floor` was reported; `onReport` sees each generation with
    /// the time since the previous report of this run. False if the writer ended first.
    @discardableResult
    func waitForReport(atLeast floor: Int, onReport: (_ generation: Int, _ gap: Duration?) -> Void = { _, _ in }) -> Bool {
        var last: ContinuousClock.Instant?
        while reported < floor, let line = reader.nextLine() {
            watchdog.progress()
            guard line.hasPrefix("saved "), let g = Int(line.dropFirst(6)) else { continue }
            let now = ContinuousClock.now
            onReport(g, last.map { now - $0 })
            last = now
            reported = g
        }
        return reported >= floor
    }

    /// Kills the writer with SIGKILL and waits until it is gone.
    func kill() {
        watchdog.stop()
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
    }

    /// Waits for a writer that ends by itself; returns its exit status (a signal counts as failure).
    func finish() -> Int32 {
        while reader.nextLine() != nil { watchdog.progress() }
        watchdog.stop()
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }
}

/// Reads a pipe line by line, blocking; `nil` at end of file.
final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0

    init(_ handle: FileHandle) { self.handle = handle }

    func nextLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start > 65_536 { buffer.removeFirst(start); start = 0 }
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(contentsOf: chunk)
        }
    }
}

/// Kills a process that stops making progress for `limit`, so a hung writer fails a test instead of
/// hanging it. Progress is reported by the caller; the limit is a safety net, not a timing assumption.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var lastProgress = ContinuousClock.now
    private var stopped = false

    init(process: Process, limit: Duration) {
        let pid = process.processIdentifier
        Thread.detachNewThread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                let (done, idle) = lock.withLock { (stopped, ContinuousClock.now - lastProgress) }
                if done { return }
                if idle > limit { kill(pid, SIGKILL); return }
            }
        }
    }

    func progress() { lock.withLock { lastProgress = .now } }
    func stop() { lock.withLock { stopped = true } }
}
