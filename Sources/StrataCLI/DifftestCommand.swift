import ArgumentParser
import Foundation
import Strata
import StrataConformance

/// `strata difftest --seeds N`: seeded random operation sequences run in lockstep on every built-in
/// backend (or the ones named; postgres too when a server is named), comparing every outcome; exits non-zero at the first divergence.
struct DifftestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "difftest", abstract: "Run seeded random operations on several backends in lockstep and report any divergence.")

    @Option(help: "How many seeds to run.") var seeds: Int = 100
    @Option(help: "The first seed.") var firstSeed: UInt64 = 1
    @Option(help: "Operations per seed.") var operations: Int = 200
    @Option(help: "Comma-separated backend names (default: every built-in backend, and postgres when STRATA_POSTGRES_URL names a server, as make difftest does).") var backends: String?
    @Option(help: "What a returned save must survive on the backends that offer a choice (SQLite, LMDB): powerLoss (their default, an fsync per save) or processCrash (SQLite synchronous = NORMAL, LMDB MDB_NOMETASYNC), which compares the same saves without waiting on the disk.") var durability: SaveDurability = .powerLoss

    func run() throws {
        let chosen = try backends.map { try $0.split(separator: ",").map { try BuiltinBackend.named(String($0)) } } ?? BuiltinBackend.all + BuiltinBackend.servers
        let participants = chosen.map { $0.differential(durability) }
        let start = ContinuousClock.now
        var stats = DifferentialStats()
        for seed in firstSeed..<(firstSeed + UInt64(max(seeds, 0))) {
            do {
                stats = stats + (try DifferentialTest.run(seed: seed, operations: operations, backends: participants))
            } catch let divergence as Divergence {
                print(divergence)
                throw ExitCode(1)
            }
            // A long run (make difftest: 1,000 seeds) says how far it got.
            let done = seed - firstSeed + 1
            if done % 50 == 0 { FileHandle.standardError.write(Data("\(done)/\(seeds) seeds, no divergence (\(ContinuousClock.now - start))\n".utf8)) }
        }
        let elapsed = ContinuousClock.now - start
        print("difftest: \(seeds) seeds × \(operations) operations on \(chosen.map(\.name).joined(separator: ", ")) and the oracle\(durability == .powerLoss ? "" : " at \(durability)"): no divergence; \(stats.summary) (\(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))))")
    }
}
