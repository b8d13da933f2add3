import ArgumentParser
import Foundation

/// `strata crash-writer`: saves generation after generation until killed; the crash tests run it.
struct CrashWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-writer", abstract: "Save generations into a store until killed (used by the crash tests).", shouldDisplay: false)

    @Option var backend: String
    @Option var path: String
    @Option var saves: Int = 1_000
    @Option var largeEvery: Int = 0
    /// Migrate a `MigrationWorkload` store to version 3 instead (`strata torture --migration`),
    /// printing `migrated <v> <milliseconds>` after each step.
    @Flag var migrate = false

    func run() throws {
        if migrate {
            var last = ContinuousClock.now
            try BuiltinBackend.named(backend).migrate(URL(fileURLWithPath: path)) { version in
                let now = ContinuousClock.now
                let elapsed = now - last
                last = now
                print("migrated \(version) \(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) ms")
            }
            return
        }
        try BuiltinBackend.named(backend).generations(URL(fileURLWithPath: path), saves, largeEvery)
    }
}
