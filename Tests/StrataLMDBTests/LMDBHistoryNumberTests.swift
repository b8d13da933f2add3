import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import Testing

@testable import StrataLMDB

/// How LMDB numbers history transactions (`LMDBHistory.newest`): from the last `history.` entry and
/// the deletion horizon, read once and then kept by the store while no other write transaction
/// commits — so an environment written by an earlier Strata (which kept `history_last`) continues
/// its numbers. The rules every backend keeps — two writers never share a number, none is reused
/// after `deleteHistory`, a failed save takes none — are suite cases
/// (`history.two-writers-number-apart`, `history.numbers-not-reused-after-delete`).
struct LMDBHistoryNumberTests {
    static func open(_ folder: URL) throws -> LMDBStore {
        var configuration = LMDBStoreConfiguration(folder: folder, schema: FixtureDomain.schema)
        configuration.recordsHistory = true
        return try LMDBStore(configuration)
    }

    /// Saves one new tag and returns the number of the transaction that recorded it.
    static func saveTag(_ store: LMDBStore, _ name: String) throws -> Int64 {
        let tag = try LMDBSnapshot.inserting(try store.schema.requireEntity("Tag"), values: ["name": .string(name)])
        _ = try store.save(SaveRequest(inserted: [tag]))
        return try #require(try store.fetchHistory(HistoryQuery()).last).token.transaction
    }

    static func setOldCounter(_ folder: URL, _ value: Int64) throws {
        try LMDBFileTests.edit(folder) { txn, meta in
            try LMDBMeta.put(txn, meta, "history_last", withUnsafeBytes(of: value.bigEndian) { Array($0) })
        }
    }

    /// An environment as the previous Strata left it (`history_last` = 3 beside three entries, then
    /// every entry deleted with the horizon at 3) opens and numbers on; a counter ahead of the
    /// entries stays a floor; this version no longer writes it.
    @Test func anEnvironmentWithTheOldCounterContinuesItsNumbers() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("old")
        do {
            let store = try Self.open(folder)
            for n in 1...3 { #expect(try Self.saveTag(store, "t\(n)") == Int64(n)) }
        }
        try Self.setOldCounter(folder, 3)
        do {
            let store = try Self.open(folder)
            #expect(try Self.saveTag(store, "t4") == 4)
            #expect(try store.fetchHistory(HistoryQuery()).map(\.token.transaction) == [1, 2, 3, 4])
        }
        try LMDBFileTests.edit(folder) { txn, meta in try LMDBHistory(txn: txn, meta: meta, file: folder.path).delete(through: 4) }
        try Self.setOldCounter(folder, 3)
        #expect(try Self.saveTag(try Self.open(folder), "t5") == 5)
        try Self.setOldCounter(folder, 9)
        #expect(try Self.saveTag(try Self.open(folder), "t6") == 10)
        var kept: Int64?
        try LMDBFileTests.edit(folder) { txn, meta in
            kept = try LMDBMeta.get(txn, meta, "history_last").map { $0.withUnsafeBytes { LMDBKeyCodec.readBigEndian($0.baseAddress!) } }
        }
        #expect(kept == 9, "this version writes no counter")
    }
}
