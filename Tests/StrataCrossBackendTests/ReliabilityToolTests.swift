import Foundation
import StrataBuiltinBackends
import StrataTestSupport
import Testing

/// Short, seeded runs of `strata torture` and `strata fuzz` on the built-in file backends; the long runs are
/// `make torture` and `make fuzz`. Each run is deterministic in what it draws (the
/// seed); kills are placed after observed `saved <g>` lines, never after a fixed delay.
struct ReliabilityToolTests {
    /// The `strata` tool built beside the tests (`swift build --build-tests` links it).
    static var strata: URL { BuiltProducts.strata }

    /// Runs the tool and returns its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let run = try ChildProcess.run(strata, arguments, errors: .discarded)
        return (run.status, run.output)
    }

    @Test(arguments: BuiltinStores.all.filter(\.isPersistentOnDisk).map(\.name))
    func tortureKeepsEveryReportedSave(backend: String) throws {
        let (status, table) = try Self.run(["torture", "--backend", backend, "--trials", "8", "--seed", "7", "--large-every", "3"])
        #expect(status == 0, "\(table)")
        #expect(table.contains("kills                     8"), "\(table)")
    }

    /// Issue 29: power loss, the short form (`make powerloss` runs thousands of states): the writer
    /// runs under the `LD_PRELOAD` recorder, and each disk state a power loss could leave must open
    /// with every acknowledged save (docs/reliability.md, "strata powerloss").
    @Test(arguments: BuiltinStores.all.filter(\.isPersistentOnDisk).map(\.name))
    func powerLossKeepsEveryAcknowledgedSave(backend: String) throws {
        let (status, table) = try Self.run(["powerloss", "--backend", backend, "--trials", "40", "--saves", "4", "--large-every", "2", "--seed", "5"])
        #expect(status == 0, "\(table)")
        #expect(table.contains("crash states checked      40"), "\(table)")
        #expect(table.contains("violations                0"), "\(table)")
    }

    /// Damage kinds each backend's format must survive here; kinds left out are findings still open
    /// on that backend (see docs/reliability.md), run in full by `make fuzz`.
    static let fuzzKinds: [String: String] = [
        "sqlite": "bit-flip,truncate,insert-bytes,delete-bytes,delete-file,swap-files,stale-file",
        "json": "bit-flip,truncate,insert-bytes,delete-bytes,delete-file,swap-files,stale-file",
        "csv": "bit-flip,truncate,insert-bytes,delete-bytes,delete-file,swap-files,stale-file",
        "xml": "bit-flip,truncate,insert-bytes,delete-bytes,delete-file,swap-files,stale-file",
        "lmdb": "bit-flip,truncate,insert-bytes,delete-bytes,delete-file,swap-files,stale-file",
    ]

    @Test(arguments: BuiltinStores.all.filter(\.isPersistentOnDisk).map(\.name))
    func damageIsReportedNeverSilentNeverACrash(backend: String) throws {
        let (status, table) = try Self.run(["fuzz", "--backend", backend, "--trials", "30", "--seed", "11", "--kinds", Self.fuzzKinds[backend]!])
        #expect(status == 0, "\(table)")
        #expect(table.contains("result: PASS"), "\(table)")
    }

    /// Issue 29: a stale copy of the one file that holds a whole SQLite or LMDB store opens as a
    /// consistent older store, which no format can tell from the current one: counted in a column of
    /// its own, never as a silently earlier save (damage).
    @Test(arguments: ["sqlite", "lmdb"])
    func aStaleCopyOfTheWholeStoreIsCountedApart(backend: String) throws {
        let (status, table) = try Self.run(["fuzz", "--backend", backend, "--trials", "12", "--seed", "3", "--kinds", "stale-file"])
        #expect(status == 0, "\(table)")
        let header = try #require(table.split(separator: "\n").first { $0.hasPrefix("damage ") })
        let total = try #require(table.split(separator: "\n").first { $0.hasPrefix("total ") }).split(separator: " ").dropFirst().compactMap { Int($0) }
        let columns = header.dropFirst("damage".count).components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let count = Dictionary(uniqueKeysWithValues: zip(columns, total))
        #expect(count["stale whole-store copy"] ?? 0 > 0, "\(table)")
        #expect(count["silently earlier save"] == 0, "\(table)")
    }

    @Test func theMemoryBackendIsRefusedWithAReason() throws {
        let (status, _) = try Self.run(["torture", "--backend", "memory", "--trials", "1"])
        #expect(status != 0)
    }
}
