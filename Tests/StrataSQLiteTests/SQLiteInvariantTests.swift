import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataSQLite
import Testing

/// The check SQLite runs after every save under `STRATA_INTERNAL_CHECKS`
/// (`SQLiteStore+Invariants.swift`): nothing on a store Strata wrote, and each broken invariant on a
/// store edited behind its back — the damage a save bug would leave.
struct SQLiteInvariantTests {
    @Test func aSavedStoreKeepsEveryInvariant() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteFileTests.open(dir.appendingPathComponent("store.sqlite"))
        try FixtureDomain.writeSample(into: store)
        #expect(try store.invariantViolations() == [])
    }

    @Test func aOneToOneWhoseColumnsDisagreeIsFound() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.sqlite")
        try FixtureDomain.writeSample(into: try SQLiteFileTests.open(file))
        // Dune's sequel column cleared while Dune Messiah's prequel column still names Dune.
        try SQLiteFileTests.edit(file, "UPDATE Book SET sequel = NULL WHERE title = 'Dune';")
        let found = try SQLiteFileTests.open(file).invariantViolations()
        #expect(found.count == 1)
        #expect(found.first?.contains(".prequel names Book 1, whose sequel does not name it back") == true)
    }

    @Test func valuesAUniqueConstraintForbidsAreFound() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.sqlite")
        try FixtureDomain.writeSample(into: try SQLiteFileTests.open(file))
        try SQLiteFileTests.edit(file, #"DROP INDEX "Library__unique_0"; UPDATE Library SET name = 'Central';"#)
        let found = try SQLiteFileTests.open(file).invariantViolations()
        #expect(found == ["Library 1 and 2 share the values of unique constraint 0 (name)"])
    }
}
