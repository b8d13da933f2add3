import ArgumentParser
import Foundation
import Strata
import StrataConformance

/// `strata migration-bench --backend <name> --records N`: times migrations of a store of N items —
/// adding one attribute with a default (SQLite's O(1) `ADD COLUMN`), then the torture workload's
/// v1 → v2 (rename, add, index, unique) and v2 → v3 (entity rename, attribute removal: a rebuild).
struct MigrationBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migration-bench", abstract: "Time schema migrations of a store of N records (add an attribute; v1 → v2 → v3 of the migration torture).")

    @Option(help: "The backend to measure.") var backend: String
    @Option(help: "How many items the store holds.") var records: Int = 100_000

    func run() throws {
        let chosen = try BuiltinBackend.named(backend)
        let work = ToolFolder(nil, prefix: "strata-migration-bench")
        let dir = try work.create()
        defer { work.finish(keep: false) }
        try chosen.migrationTemplate(dir, records)
        print("\(backend), \(records) records: add attribute with a default: \(Self.ms(try chosen.addAttribute(dir)))")
        var last = ContinuousClock.now
        try chosen.migrate(dir) { version in
            let now = ContinuousClock.now
            print("\(backend), \(records) records: v\(version - 1) → v\(version): \(Self.ms(now - last))")
            last = now
        }
        _ = try chosen.migrationCheck(dir, records)
    }

    static func ms(_ d: Duration) -> String {
        String(format: "%.1f ms", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
    }
}
