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

    func run() throws {
        try BuiltinBackend.named(backend).generations(URL(fileURLWithPath: path), saves, largeEvery)
    }
}
