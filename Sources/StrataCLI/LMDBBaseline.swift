import CLMDBBaseline
import Foundation
import Strata
import StrataConformance
import StrataLMDB

/// The standard workload on raw liblmdb, in C (`Benchmarks/CBaselines/CLMDBBaseline/lmdb_baseline.c`): the same
/// named databases as the backend, one write transaction per save, the backend's default sync flags,
/// records decoded in place. It runs in this process on the same data, so the ratio backend / C is
/// measured in one run; `--step` brackets one step with `strata_measure` for callgrind.
enum LMDBBaseline {
    static func run(records: Int, step: String? = nil, durability: SaveDurability = .powerLoss) throws -> [String: WorkloadReport.Figure] {
        let flags = UInt32(LMDBStoreConfiguration.environmentFlags(BenchDurability.lmdb(durability)))
        return try RawBaseline.run(records: records, step: step) { directory, records, step, figures in
            strata_lmdb_baseline(directory, records, flags, step, figures)
        }
    }
}
