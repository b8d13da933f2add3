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
    /// printing `inside 3` inside the custom stage's atomic step (records loaded, writer lock
    /// held) and `migrated <v> <milliseconds>` after each step, each line as it happens.
    @Flag var migrate = false
    /// With `--migrate`: after `inside 3`, wait for a line on standard input before going on, so
    /// another process can try the store while the migration holds it (the migration tests).
    @Flag var holdInside = false

    func run() throws {
        if migrate {
            func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
            var last = ContinuousClock.now
            let hold = holdInside
            try BuiltinBackend.named(backend).migrate(URL(fileURLWithPath: path), {
                say("inside 3")
                if hold { _ = readLine() }
            }) { version in
                let now = ContinuousClock.now
                let elapsed = now - last
                last = now
                say("migrated \(version) \(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) ms")
            }
            return
        }
        try BuiltinBackend.named(backend).generations(URL(fileURLWithPath: path), saves, largeEvery)
    }
}
