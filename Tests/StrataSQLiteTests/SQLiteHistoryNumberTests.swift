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
        let tag = try DefaultSnapshot.inserting(try store.schema.requireEntity("Tag"), values: ["name": .string(name)])
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
}
