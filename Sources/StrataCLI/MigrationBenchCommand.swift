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
    @Option(help: "text, or json (a BackendReport.MigrationTimes, what `strata report` reads).") var format: String = "text"

    func run() throws {
        let chosen = try BuiltinBackend.named(backend)
        let work = ToolFolder(nil, prefix: "strata-migration-bench")
        let dir = try work.create()
        defer { work.finish(keep: false) }
        try chosen.migrationTemplate(dir, records)
        let added = try chosen.addAttribute(dir)
        var steps: [Duration] = []
        var last = ContinuousClock.now
        try chosen.migrate(dir, {}) { _ in
            let now = ContinuousClock.now
            steps.append(now - last)
            last = now
        }
        _ = try chosen.migrationCheck(dir, records)
        guard steps.count == 2 else { throw ValidationError("the migration ran \(steps.count) steps, not v1 → v2 → v3") }
        if format == "json" {
            let times = BackendReport.MigrationTimes(
                records: records, addAttributeMilliseconds: Self.milliseconds(added), lightweightMilliseconds: Self.milliseconds(steps[0]),
                v2ToV3Milliseconds: Self.milliseconds(steps[1]), customStage: chosen.migrationHasCustomStage)
            print(String(decoding: try JSONEncoder().encode(times), as: UTF8.self))
            return
        }
        print("\(backend), \(records) records: add attribute with a default: \(Self.ms(added))")
        print("\(backend), \(records) records: v1 → v2 (lightweight): \(Self.ms(steps[0]))")
        print("\(backend), \(records) records: v2 → v3 (\(chosen.migrationHasCustomStage ? "custom stage, one atomic step" : "lightweight")): \(Self.ms(steps[1]))")
    }

    static func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

    static func ms(_ d: Duration) -> String { String(format: "%.1f ms", milliseconds(d)) }
}
