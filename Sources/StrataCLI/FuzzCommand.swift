import ArgumentParser
import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance

/// `strata fuzz --backend <name> --trials N`: damages copies of a sample store in seeded ways, opens
/// each in a child process and tabulates what happened.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz", abstract: "Damage copies of a sample store (bit flips, cuts, inserted or deleted bytes, deleted, swapped or stale files) and classify each open.")

    @Option(help: "The backend to fuzz (a backend whose stores live in files; postgres is refused: its server keeps no files of ours).") var backend: String
    @Option(help: "Accepted for symmetry with the other tools; postgres is refused whatever the server.") var url: String?
    @Option(help: "How many damaged copies are opened.") var trials: Int = 100
    @Option(help: "The seed of every random choice.") var seed: UInt64 = 1
    @Option(help: "The damage kinds to draw from, comma-separated (default: all): \(DamageKind.allCases.map(\.rawValue).joined(separator: ", ")).") var kinds: String?
    @Option(help: "Seconds after which an open counts as a hang.") var hangLimit: Int = 60
    @Option(help: "Where stores are written (default: a new temporary folder, removed after a passing run).") var workDirectory: String?

    func validate() throws {
        guard trials > 0 else { throw ValidationError("--trials must be at least 1.") }
        _ = try chosenKinds()
    }

    private func chosenKinds() throws -> [DamageKind] {
        guard let kinds else { return DamageKind.allCases }
        return try kinds.split(separator: ",").map { name in
            guard let kind = DamageKind(rawValue: String(name)) else { throw ValidationError("Unknown damage kind '\(name)'. Kinds: \(DamageKind.allCases.map(\.rawValue).joined(separator: ", ")).") }
            return kind
        }
    }

    func run() throws {
        let chosen = try BuiltinBackend.named(backend)
        if BuiltinStores.servers.contains(where: { $0.name == chosen.name }) {
            throw ValidationError("The \(backend) backend keeps its stores on a PostgreSQL server, not in files: damaging files does not apply (the server guards its own pages; initdb --data-checksums makes it check them). Its crash test is `strata torture --backend \(backend)`, which kills writers in the middle of saves (docs/formats/postgres.md, \"The tools\").")
        }
        guard chosen.isPersistentOnDisk else { throw ValidationError("The \(backend) backend keeps no files to damage.") }
        let work = ToolFolder(workDirectory, prefix: "strata-fuzz")
        let tool = try ToolFolder.executable
        let options = DamageFuzzer.Options(trials: trials, seed: seed, kinds: try chosenKinds(), hangLimit: .seconds(hangLimit), silentDamageIsFailure: chosen.detectsAllDamage, isAppendOnly: chosen.isAppendOnly, holdsWholeStore: chosen.holdsWholeStore)
        let report = try DamageFuzzer.run(
            options, in: try work.create(),
            build: { dir, generation in try chosen.damageSample(dir, generation) },
            dump: { dir in try chosen.dump(dir) },
            open: { dir, output in (tool, ["fuzz-open", "--backend", backend, "--path", dir.path, "--output", output.path]) },
            progress: { trial, _ in if trial % 100 == 0 { FileHandle.standardError.write(Data("\(trial)/\(trials) trials\n".utf8)) } })
        print(report.table(backend: backend))
        work.finish(keep: !report.passed)
        if !report.passed { throw ExitCode(1) }
    }
}

/// `strata fuzz-open`: the fuzzer's child. Opens a store and writes its dump to a file; a
/// `StrataError` exits with 65, any other error with 66, so the parent can tell them apart.
struct FuzzOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fuzz-open", abstract: "Open a store and write its dump (used by strata fuzz).", shouldDisplay: false)

    @Option var backend: String
    @Option var path: String
    @Option var output: String

    func run() throws {
        do {
            let text = try BuiltinBackend.named(backend).dump(URL(fileURLWithPath: path))
            try Data(text.utf8).write(to: URL(fileURLWithPath: output))
        } catch let error as StrataError {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(DamageFuzzer.strataErrorStatus)
        } catch {
            FileHandle.standardError.write(Data("\(type(of: error)): \(error)\n".utf8))
            throw ExitCode(DamageFuzzer.otherErrorStatus)
        }
    }
}
