import Foundation

/// What `strata report` shows while it runs: on a terminal, the backend, task, store size and elapsed
/// time, redrawn in place, and one line per finished task; nothing when standard error is not a
/// terminal (a log or CI), where the finished files speak for themselves.
struct ReportProgress {
    let enabled: Bool

    /// Progress shown only when standard error is a terminal.
    static var forStandardError: ReportProgress { ReportProgress(enabled: isatty(STDERR_FILENO) == 1) }

    /// Redraws the line of a running task.
    func running(_ backend: String, _ task: String, elapsed: Duration) {
        guard enabled else { return }
        write("\r\u{1B}[K  \(backend)  \(task)  \(Self.seconds(elapsed))")
    }

    /// Replaces the running line with the task's result.
    func finished(_ backend: String, _ task: String, elapsed: Duration, failure: String?) {
        guard enabled else { return }
        let result = failure.map { "FAILED: \($0.prefix(100))" } ?? "done"
        write("\r\u{1B}[K  \(backend)  \(task)  \(Self.seconds(elapsed))  \(result)\n")
    }

    /// A plain line (start of a backend, the end of the run).
    func note(_ line: String) {
        guard enabled else { return }
        write(line + "\n")
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    private static func seconds(_ d: Duration) -> String {
        String(format: "%.1f s", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
}
