import Foundation

/// `strata torture --migration`: a writer migrates a copy of a version-1 store to version 3
/// (`MigrationWorkload`) and is killed with SIGKILL at a random moment of it; after every kill the
/// store must open at version 1, 2 or 3 — never between — holding every record.
///
/// The kill's moment is drawn from how long a whole migration was seen to take (one writer runs
/// unkilled first), so kills land early, late and inside each step. Where a kill lands decides
/// only which version is found; the checks hold wherever it lands.
public enum MigrationTorture {
    /// The outcome of a run.
    public struct Report: Sendable {
        /// Kills made.
        public var kills = 0
        /// How many stores were found at versions 1, 2 and 3 after a kill.
        public var atVersion = [0, 0, 0]
        /// Stores found between versions, with lost or changed records, or unopenable.
        public var failures = 0
        /// What failed, per trial.
        public var problems: [String] = []
        /// How long the unkilled migration took.
        public var wholeMigration: Duration = .zero

        /// Whether every kill left a whole store at some version.
        public var passed: Bool { failures == 0 }

        /// The report as text.
        public func table(backend: String, records: Int) -> String {
            var lines = ["strata torture --migration — \(backend), \(records) records, v1 → v2 → v3 (whole migration unkilled: \(wholeMigration))", ""]
            lines.append("kills  at v1  at v2  at v3  between/lost/unopenable")
            lines.append(String(format: "%5d  %5d  %5d  %5d  %d", kills, atVersion[0], atVersion[1], atVersion[2], failures))
            lines += problems.prefix(20).map { "  " + $0 }
            lines.append("")
            lines.append("result: \(passed ? "PASS" : "FAIL")")
            return lines.joined(separator: "\n")
        }
    }

    /// Runs `trials` kills.
    ///
    /// - Parameters:
    ///   - template: writes the version-1 store into a directory (once).
    ///   - writer: the executable and arguments of a migrating writer for a directory.
    ///   - check: `MigrationWorkload.check` on a directory: the version found.
    public static func run(
        trials: Int, seed: UInt64, in work: URL, template: (URL) throws -> Void,
        writer: (URL) -> (URL, [String]), check: (URL) throws -> Int, progress: (Int) -> Void = { _ in }
    ) throws -> Report {
        var report = Report()
        let fm = FileManager.default
        let original = work.appendingPathComponent("template")
        try? fm.removeItem(at: original)
        try fm.createDirectory(at: original, withIntermediateDirectories: true)
        try template(original)
        func fresh(_ name: String) throws -> URL {
            let dir = work.appendingPathComponent(name)
            try? fm.removeItem(at: dir)
            try fm.copyItem(at: original, to: dir)
            return dir
        }
        func start(_ dir: URL) throws -> Process {
            let (executable, arguments) = writer(dir)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        // One migration unkilled: it must succeed, and it times the window kills are drawn from.
        let whole = try fresh("unkilled")
        let began = ContinuousClock.now
        let first = try start(whole)
        first.waitUntilExit()
        report.wholeMigration = ContinuousClock.now - began
        if first.terminationStatus != 0 || (try? check(whole)) != 3 {
            report.failures += 1
            report.problems.append("the unkilled migration ended with status \(first.terminationStatus) and left version \(String(describing: try? check(whole)))")
        }
        try? fm.removeItem(at: whole)
        var random = SeededGenerator(state: seed)
        let window = UInt64(max(1, report.wholeMigration.components.seconds * 1_000_000 + report.wholeMigration.components.attoseconds / 1_000_000_000_000))
        for trial in 1...trials {
            let dir = try fresh("trial")
            let process = try start(dir)
            usleep(UInt32(clamping: random.next() % (window + window / 5)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            report.kills += 1
            do {
                let version = try check(dir)
                report.atVersion[version - 1] += 1
            } catch {
                report.failures += 1
                report.problems.append("trial \(trial): \(error)")
                try? fm.moveItem(at: dir, to: work.appendingPathComponent("failed-\(trial)"))
            }
            progress(trial)
        }
        try? fm.removeItem(at: work.appendingPathComponent("trial"))
        return report
    }
}
