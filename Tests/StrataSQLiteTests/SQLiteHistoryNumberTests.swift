import Foundation
import Strata
import StrataConformance
import StrataSQLite
import Testing

/// How SQLite numbers history transactions (`SQLiteHistory`): from the table's newest row and the
/// deletion horizon, read once and then kept by the writer while nobody else commits — so a store
/// written by an earlier Strata (which kept `history_last` in the metadata) continues its numbers.
/// The rules every backend keeps — two writers never share a number, none is reused after
/// `deleteHistory`, a failed save takes none — are suite cases (`history.two-writers-number-apart`,
/// `history.numbers-not-reused-after-delete`).
struct SQLiteHistoryNumberTests {
    static func open(_ file: URL) throws -> SQLiteStore {
        var configuration = SQLiteStoreConfiguration(url: file, schema: FixtureDomain.schema, busyTimeout: .seconds(5))
        configuration.recordsHistory = true
        return try SQLiteStore(configuration)
    }

    /// Saves one new tag and returns the number of the transaction that recorded it.
    static func saveTag(_ store: SQLiteStore, _ name: String) throws -> Int64 {
        let tag = try SQLiteSnapshot.inserting(try store.schema.requireEntity("Tag"), values: ["name": .string(name)])
        _ = try store.save(SaveRequest(inserted: [tag]))
        return try #require(try store.fetchHistory(HistoryQuery()).last).token.transaction
    }

    /// A store as the previous Strata left it: three transactions, `history_last` = 3 in
    /// `strata_metadata` (the counter it read and wrote on every save), then the same after
    /// `deleteHistory` through 3 (no row left; `history_horizon` = 3). It opens and numbers on.
    @Test func aStoreWithTheOldCounterContinuesItsNumbers() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("old.sqlite")
        do {
            let store = try Self.open(file)
            for n in 1...3 { #expect(try Self.saveTag(store, "t\(n)") == Int64(n)) }
        }
        try SQLiteFileTests.edit(file, "INSERT OR REPLACE INTO strata_metadata (key, value) VALUES ('history_last', '3');")
        do {
            let store = try Self.open(file)
            #expect(try Self.saveTag(store, "t4") == 4)
            #expect(try store.fetchHistory(HistoryQuery()).map(\.token.transaction) == [1, 2, 3, 4])
        }
        // The earlier Strata's deleteHistory through its newest: no row left, the horizon at 3.
        try SQLiteFileTests.edit(file, """
            DELETE FROM strata_history;
            INSERT OR REPLACE INTO strata_metadata (key, value) VALUES ('history_last', '3'), ('history_horizon', '3');
            """)
        #expect(try Self.saveTag(try Self.open(file), "t5") == 4)
        // And a counter ahead of every row and the horizon is still a floor: never a number it gave.
        try SQLiteFileTests.edit(file, "INSERT OR REPLACE INTO strata_metadata (key, value) VALUES ('history_last', '9');")
        #expect(try Self.saveTag(try Self.open(file), "t6") == 10)
        // This version writes no counter: the row is the record of the number.
        #expect(try SQLiteFileTests.shell(file, "SELECT value FROM strata_metadata WHERE key = 'history_last'") == "9")
    }



    /// This version numbers from the table, not from `history_last`, which an older Strata reads
    /// and writes, and writes the compact stored form, which a version 2 Strata cannot decode: the
    /// first save that records raises `PRAGMA user_version` to 3, so an older Strata refuses the
    /// store with `newerFormat` instead of failing on a taken number, reusing one below the horizon
    /// or failing on a transaction it cannot read. A store this version records nothing in keeps
    /// version 1: no needless upgrade.
    @Test func recordingRaisesTheFormatVersionAndOnlyRecording() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.sqlite")
        do {
            let store = try SQLiteStore(SQLiteStoreConfiguration(url: plain, schema: FixtureDomain.schema))
            let tag = try SQLiteSnapshot.inserting(try store.schema.requireEntity("Tag"), values: ["name": "p"])
            _ = try store.save(SaveRequest(inserted: [tag]))
        }
        #expect(try SQLiteFileTests.shell(plain, "PRAGMA user_version") == "1", "saves without history keep the version")
        do { _ = try Self.open(plain) }
        #expect(try SQLiteFileTests.shell(plain, "PRAGMA user_version") == "1", "opening with history on writes no version")

        let recorded = dir.appendingPathComponent("recorded.sqlite")
        do { #expect(try Self.saveTag(try Self.open(recorded), "r1") == 1) }
        #expect(try SQLiteFileTests.shell(recorded, "PRAGMA user_version") == "3")
        do { #expect(try Self.saveTag(try Self.open(recorded), "r2") == 2, "this version reads what it raised") }
        #expect(try SQLiteFileTests.shell(recorded, "PRAGMA user_version") == "3")

        // A store an older Strata recorded in (version 1, `history_last`) is raised by the first
        // save this version records there.
        try SQLiteFileTests.edit(recorded, "PRAGMA user_version = 1; INSERT OR REPLACE INTO strata_metadata (key, value) VALUES ('history_last', '2');")
        do { #expect(try Self.saveTag(try Self.open(recorded), "r3") == 3) }
        #expect(try SQLiteFileTests.shell(recorded, "PRAGMA user_version") == "3")
        // And so is one the last version recorded in (version 2, the first stored form).
        try SQLiteFileTests.edit(recorded, "PRAGMA user_version = 2;")
        do { #expect(try Self.saveTag(try Self.open(recorded), "r4") == 4) }
        #expect(try SQLiteFileTests.shell(recorded, "PRAGMA user_version") == "3")

        // A version this code does not know yet is refused, as an older Strata refuses 3.
        try SQLiteFileTests.edit(recorded, "PRAGMA user_version = 4;")
        let error = try #require(throws: StrataError.self) { try Self.open(recorded) }
        #expect(error.code == .unsupported)
    }

    /// A store written by an earlier Strata (bdf7791, Tests/Fixtures/HistoryStores): this version
    /// reads its four transactions (the first stored form), records the fifth after them (the
    /// compact form), reads all five and raises the version.
    @Test func aStoreWrittenByTheLastVersionReadsAndRecordsOn() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/HistoryStores/sqlite/store.sqlite")
        let file = dir.appendingPathComponent("store.sqlite")
        try FileManager.default.copyItem(at: fixture, to: file)
        #expect(try SQLiteFileTests.shell(file, "PRAGMA user_version") == "1")
        let store = try Self.open(file)
        let history = try store.fetchHistory(HistoryQuery())
        #expect(history.map(\.token.transaction) == [1, 2, 3, 4])
        #expect(history.allSatisfy { !$0.changes.isEmpty })
        #expect(try Self.saveTag(store, "after") == 5)
        #expect(try SQLiteFileTests.shell(file, "PRAGMA user_version") == "3")
        let both = try store.fetchHistory(HistoryQuery())
        #expect(Array(both.prefix(4)) == history && both.map(\.token.transaction) == [1, 2, 3, 4, 5])
        #expect(try SQLiteFileTests.shell(file, "SELECT substr(\"transaction\", 1, 8) FROM strata_history WHERE token IN (4, 5) ORDER BY token")
            == "{\"token\"\n{\"v\":2,\"")
    }
}
