import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import Testing

@testable import StrataLMDB

/// The check LMDB runs after every save under `STRATA_INTERNAL_CHECKS` (`LMDBStore+Invariants.swift`):
/// nothing on a store Strata wrote, and each broken invariant on an environment edited behind its
/// back — the damage a save bug would leave in the unique, index and list databases.
struct LMDBInvariantTests {
    /// The sample store in a fresh folder.
    static func sample(_ dir: URL) throws -> URL {
        let folder = dir.appendingPathComponent("store")
        try FixtureDomain.writeSample(into: try LMDBFileTests.open(folder))
        return folder
    }

    /// Empties the database `name` behind the store's back.
    static func empty(_ folder: URL, _ name: String) throws {
        try LMDBFileTests.edit(folder) { txn, _ in
            var dbi: MDB_dbi = 0
            try #require(mdb_dbi_open(txn, name, 0, &dbi) == 0)
            try #require(mdb_drop(txn, dbi, 0) == 0)
        }
    }

    @Test func aSavedStoreKeepsEveryInvariant() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try LMDBFileTests.open(try Self.sample(dir)).invariantViolations() == [])
    }

    /// The violations found after emptying the database `name` of the sample store.
    static func violations(afterEmptying name: String) throws -> [String] {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try sample(dir)
        try empty(folder, name)
        return try LMDBFileTests.open(folder).invariantViolations()
    }

    @Test func aUniqueDatabaseMissingItsEntriesIsFound() throws {
        #expect(try Self.violations(afterEmptying: "u.Library.name") == [
            "u.Library.name has no entry for Library 1", "u.Library.name has no entry for Library 2",
            "u.Library.name holds 0 entries for 2 records with values",
        ])
    }

    @Test func anIndexDatabaseMissingItsEntriesIsFound() throws {
        let found = try Self.violations(afterEmptying: "i.Book.pages")
        #expect(found.count == 4)
        #expect(found.last == "i.Book.pages holds 0 entries for 3 records with values")
    }

    @Test func aListThatLostItsEntriesIsFound() throws {
        // Both chapters name Dune; Dune's list (read from the emptied database) names neither.
        let found = try Self.violations(afterEmptying: "r.Book.chapters")
        #expect(found.count == 2)
        #expect(found.filter { $0.contains(".book names Book 1, whose chapters does not name it back") }.count == 2)
    }
}
