import CLMDB
import Foundation
import Strata
import StrataConformance
@testable import StrataLMDB
import Testing

/// Issue 29: LMDB opened with `MDB_NOMETASYNC`, so the last acknowledged save could vanish on power
/// loss while the contract promised nothing either way. `.powerLoss` (the default) now opens the
/// environment without it (flags `0`: data and meta pages flushed at every commit); `.processCrash`
/// keeps `MDB_NOMETASYNC`; neither sets `MDB_NOSYNC` (docs/store-contract.md, "Durability").
struct LMDBDurabilityTests {
    /// The flags of the environment an open store really uses.
    static func flags(_ durability: LMDBStoreConfiguration.Durability?) throws -> UInt32 {
        let folder = try LMDBFileTests.directory().appendingPathComponent("store")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        var configuration = LMDBStoreConfiguration(folder: folder, schema: FixtureDomain.schema)
        if let durability { configuration.durability = durability }
        let store = try LMDBStore(configuration)
        var flags: UInt32 = 0
        #expect(mdb_env_get_flags(store.environment.env, &flags) == 0)
        return flags
    }

    @Test func eachLevelSetsItsFlagsAndPowerLossIsTheDefault() throws {
        let sync = UInt32(MDB_NOMETASYNC) | UInt32(MDB_NOSYNC)
        #expect(try Self.flags(nil) & sync == 0)
        #expect(try Self.flags(.init(.powerLoss)) & sync == 0)
        #expect(try Self.flags(.init(.processCrash)) & sync == UInt32(MDB_NOMETASYNC))
    }
}
