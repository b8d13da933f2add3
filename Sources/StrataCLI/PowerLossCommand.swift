import ArgumentParser
import Foundation
import Strata
import StrataConformance

/// `strata powerloss --backend <name> --trials N`: records a writer's every file change under an
/// `LD_PRELOAD` recorder, then opens N disk states a power loss could have left (docs/reliability.md,
/// "Power loss").
struct PowerLossCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "powerloss", abstract: "Record a writer's file changes and open the disk states a power loss could leave.")

    @Option(help: "The backend to test (a backend whose stores live in files).") var backend: String
    @Option(help: "How many crash states are built and opened.") var trials: Int = 1_000
    @Option(help: "The seed of every random choice.") var seed: UInt64 = 1
    @Option(help: "How many saves the recorded writer makes after its first.") var saves: Int = 12
    @Option(help: "Every n-th save is a large one (2,000 notes; 0: none).") var largeEvery: Int = 4
    @Option(help: "Where the log and failing states are kept (default: a new temporary folder, removed after a passing run).") var workDirectory: String?

    func validate() throws {
        guard trials > 0, saves > 0 else { throw ValidationError("--trials and --saves must be at least 1.") }
    }

    func run() throws {
        let chosen = try BuiltinBackend.named(backend)
        guard chosen.isPersistentOnDisk else { throw ValidationError("The \(backend) backend keeps no files.") }
        let work = ToolFolder(workDirectory, prefix: "strata-powerloss")
        let folder = try work.create()
        let recorder = try PowerLossRecorder.build(in: folder)
        let tool = try ToolFolder.executable
        let largeEvery = self.largeEvery
        let options = PowerLossTester.Options(trials: trials, seed: seed, saves: saves, largeEvery: largeEvery, losingSavesAllowed: false)
        let report = try PowerLossTester.run(
            options, recorder: recorder, in: folder,
            writer: { dir in (tool, ["crash-writer", "--backend", backend, "--path", dir.path, "--saves", String(saves), "--large-every", String(largeEvery)]) },
            check: { dir in try chosen.powerLossCheck(dir, largeEvery) })
        print(report.table(backend: backend, level: "powerLoss, the default"))
        work.finish(keep: !report.passed)
        if !report.passed { throw ExitCode(1) }
    }
}
