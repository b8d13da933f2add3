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


    static func format(_ folder: URL) throws -> UInt32? {
        var version: UInt32?
        try LMDBFileTests.edit(folder) { txn, meta in
            version = try LMDBMeta.get(txn, meta, "format").map { $0.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) } }
        }
        return version
    }

    /// This version numbers from the entries, not from `history_last`, which an older Strata reads
    /// and writes, and writes the compact stored form, which a version 2 Strata cannot decode: the
    /// first save that records raises `format` to 3, so an older Strata refuses the environment
    /// with `newerFormat` instead of overwriting entries or failing on one it cannot read. An
    /// environment this version records nothing in keeps version 1: no needless upgrade.
    @Test func recordingRaisesTheFormatVersionAndOnlyRecording() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain")
        do {
            let store = try LMDBFileTests.open(plain)
            let tag = try LMDBSnapshot.inserting(try store.schema.requireEntity("Tag"), values: ["name": "p"])
            _ = try store.save(SaveRequest(inserted: [tag]))
        }
        #expect(try Self.format(plain) == 1, "saves without history keep the version")
        do { _ = try Self.open(plain) }
        #expect(try Self.format(plain) == 1, "opening with history on writes nothing")

        let recorded = dir.appendingPathComponent("recorded")
        do { _ = try Self.open(recorded) }
        #expect(try Self.format(recorded) == 1)
        do { #expect(try Self.saveTag(try Self.open(recorded), "r1") == 1) }
        #expect(try Self.format(recorded) == LMDBMeta.historyFormatVersion)
        #expect(LMDBMeta.historyFormatVersion == 3 && LMDBMeta.formatVersion == 3)
        do { #expect(try Self.saveTag(try Self.open(recorded), "r2") == 2, "this version reads what it raised") }
        #expect(try Self.format(recorded) == 3)

        // An environment an older Strata recorded in (version 1, `history_last`) is raised by the
        // first save this version records there.
        try LMDBFileTests.edit(recorded) { txn, meta in
            try LMDBMeta.put(txn, meta, "format", withUnsafeBytes(of: UInt32(1).bigEndian) { Array($0) })
        }
        try Self.setOldCounter(recorded, 2)
        do { #expect(try Self.saveTag(try Self.open(recorded), "r3") == 3) }
        #expect(try Self.format(recorded) == 3)
        // And so is one the last version recorded in (version 2, the first stored form).
        try LMDBFileTests.edit(recorded) { txn, meta in
            try LMDBMeta.put(txn, meta, "format", withUnsafeBytes(of: UInt32(2).bigEndian) { Array($0) })
        }
        do { #expect(try Self.saveTag(try Self.open(recorded), "r4") == 4) }
        #expect(try Self.format(recorded) == 3)
    }

    /// An environment written by an earlier Strata (bdf7791, Tests/Fixtures/HistoryStores): this
    /// version reads its four transactions (the first stored form), records the fifth after them
    /// (the compact form), reads all five and raises the format.
    @Test func anEnvironmentWrittenByTheLastVersionReadsAndRecordsOn() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/HistoryStores/lmdb")
        let folder = dir.appendingPathComponent("store")
        try FileManager.default.copyItem(at: fixture, to: folder)
        #expect(try Self.format(folder) == 1)
        do {
            let store = try Self.open(folder)
            let history = try store.fetchHistory(HistoryQuery())
            #expect(history.map(\.token.transaction) == [1, 2, 3, 4])
            #expect(history.allSatisfy { !$0.changes.isEmpty })
            #expect(try Self.saveTag(store, "after") == 5)
            let both = try store.fetchHistory(HistoryQuery())
            #expect(Array(both.prefix(4)) == history && both.map(\.token.transaction) == [1, 2, 3, 4, 5])
        }
        #expect(try Self.format(folder) == 3)
    }
}
