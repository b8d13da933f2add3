import Foundation

/// `strata torture --migration`: a writer migrates a copy of a version-1 store to version 3
/// (`MigrationWorkload`) and is killed with SIGKILL at a random moment of it; after every kill the
/// store must open at version 1, 2 or 3 — never between — holding every record.
///
/// Two kinds of kill, alternating. Odd trials: the moment is drawn from how long a whole migration
/// was seen to take (one writer runs unkilled first), so kills land early, late and inside each
/// step. Even trials: the kill waits for the writer's `inside 3` line (the v2 → v3 custom stage's
/// atomic step has loaded the records and holds the writer lock), then comes after a delay drawn
/// from how long the rest of that step was seen to take, so kills land inside `willMigrate`, the
/// schema change, `didMigrate` and the write. Each trial's writer lines say where it was killed
/// (`insideCustomStage` counts the kills after `inside 3` and before `migrated 3`). Where a kill
/// lands decides only which version is found; the checks hold wherever it lands.
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
        /// How long the unkilled migration's custom stage took, from `inside 3` to `migrated 3`.
        public var customStage: Duration = .zero
        /// Kills that landed inside the custom stage's atomic step (the writer had said `inside 3`
        /// and not yet `migrated 3`).
        public var insideCustomStage = 0

        /// Whether every kill left a whole store at some version.
        public var passed: Bool { failures == 0 }

        /// The report as text.
        public func table(backend: String, records: Int) -> String {
            var lines = ["strata torture --migration — \(backend), \(records) records, v1 → v2 → v3 (whole migration unkilled: \(wholeMigration), its custom stage \(customStage))", ""]
            lines.append("kills  at v1  at v2  at v3  between/lost/unopenable  inside the custom stage")
            lines.append(String(format: "%5d  %5d  %5d  %5d  %23d  %23d", kills, atVersion[0], atVersion[1], atVersion[2], failures, insideCustomStage))
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
    ///   - discard: with a `discard` that removes the store "in" a directory: the store lives on a
    ///     server, not in the directory (PostgreSQL), so every trial writes its version-1 store
    ///     afresh instead of copying the template's files.
    public static func run(
        trials: Int, seed: UInt64, in work: URL, template: (URL) throws -> Void,
        writer: (URL) -> (URL, [String]), check: (URL) throws -> Int, onServer discard: ((URL) -> Void)? = nil, progress: (Int) -> Void = { _ in }
    ) throws -> Report {
        var report = Report()
        let fm = FileManager.default
        let original = work.appendingPathComponent("template")
        try? fm.removeItem(at: original)
        try fm.createDirectory(at: original, withIntermediateDirectories: true)
        if discard == nil { try template(original) }
        func fresh(_ name: String) throws -> URL {
            let dir = work.appendingPathComponent(name)
            try? fm.removeItem(at: dir)
            guard let discard else {
                try fm.copyItem(at: original, to: dir)
                return dir
            }
            discard(dir)
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            try template(dir)
            return dir
        }
        func start(_ dir: URL) throws -> (Process, LineReader, FileHandle) {
            let (executable, arguments) = writer(dir)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, LineReader(output.fileHandleForReading), output.fileHandleForReading)
        }
        func microseconds(_ d: Duration) -> UInt64 { UInt64(max(1, d.components.seconds * 1_000_000 + d.components.attoseconds / 1_000_000_000_000)) }
        // One migration unkilled: it must succeed, and it times the windows kills are drawn from.
        let whole = try fresh("unkilled")
        let began = ContinuousClock.now
        let (first, firstLines, firstOutput) = try start(whole)
        var entered: ContinuousClock.Instant?
        while let line = firstLines.nextLine() {
            if line == "inside 3" { entered = .now }
            if line.hasPrefix("migrated 3"), let entered { report.customStage = .now - entered }
        }
        first.waitUntilExit()
        try? firstOutput.close()
        report.wholeMigration = ContinuousClock.now - began
        if first.terminationStatus != 0 || (try? check(whole)) != 3 {
            report.failures += 1
            report.problems.append("the unkilled migration ended with status \(first.terminationStatus) and left version \(String(describing: try? check(whole)))")
        }
        try? fm.removeItem(at: whole)
        discard?(whole)
        var random = SeededGenerator(state: seed)
        let window = microseconds(report.wholeMigration), stageWindow = microseconds(report.customStage)
        for trial in 1...trials {
            let dir = try fresh("trial")
            let (process, lines, output) = try start(dir)
            var seen: [String] = []
            if trial % 2 == 0 {
                // Wait for the writer inside the custom stage's atomic step (or its end).
                while let line = lines.nextLine() {
                    seen.append(line)
                    if line == "inside 3" { break }
                }
                usleep(UInt32(clamping: random.next() % (stageWindow + stageWindow / 5)))
            } else {
                usleep(UInt32(clamping: random.next() % (window + window / 5)))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            while let line = lines.nextLine() { seen.append(line) }
            try? output.close()
            if seen.contains("inside 3") && !seen.contains(where: { $0.hasPrefix("migrated 3") }) { report.insideCustomStage += 1 }
            report.kills += 1
            do {
                let version = try check(dir)
                report.atVersion[version - 1] += 1
            } catch {
                report.failures += 1
                report.problems.append("trial \(trial): \(error)")
                if discard == nil { try? fm.moveItem(at: dir, to: work.appendingPathComponent("failed-\(trial)")) }
            }
            progress(trial)
        }
        try? fm.removeItem(at: work.appendingPathComponent("trial"))
        discard?(work.appendingPathComponent("trial"))
        return report
    }
}
