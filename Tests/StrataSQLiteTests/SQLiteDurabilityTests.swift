import Foundation
import Strata
import StrataConformance
@testable import StrataSQLite
import Testing

/// Issue 29: SQLite ran its WAL with `synchronous = NORMAL` (no sync at commit), so the last
/// acknowledged saves could vanish on power loss while the contract promised nothing either way.
/// Each `SaveDurability` now sets its mode on the writer connection, `.powerLoss` by default
/// (docs/store-contract.md, "Durability"); `strata powerloss` checks what the default keeps.
struct SQLiteDurabilityTests {
    /// `PRAGMA synchronous` on the open store's writer: 2 is FULL, 1 NORMAL.
    static func synchronousMode(_ configuration: SQLiteStoreConfiguration) throws -> Int64? {
        let store = try SQLiteStore(configuration)
        return try store.writer.withLock { try $0.db.prepare("PRAGMA synchronous").rows { $0.int64(0) }.first }
    }

    @Test func eachLevelSetsItsSynchronousModeAndPowerLossIsTheDefault() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("store.sqlite")
        #expect(try Self.synchronousMode(SQLiteStoreConfiguration(url: url, schema: FixtureDomain.schema)) == 2)
        #expect(try Self.synchronousMode(SQLiteStoreConfiguration(url: url, schema: FixtureDomain.schema, durability: .powerLoss)) == 2)
        #expect(try Self.synchronousMode(SQLiteStoreConfiguration(url: url, schema: FixtureDomain.schema, durability: .processCrash)) == 1)
    }
}
