import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataPostgres
import Testing

/// The check PostgreSQL runs after every committed save under `STRATA_INTERNAL_CHECKS`
/// (`PostgresStore+Invariants.swift`), as SQLite's and LMDB's: nothing on a store Strata wrote, and
/// each broken invariant on a store edited behind its back — the damage a save bug would leave.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresInvariantTests {
    let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: FixtureDomain.schema, namespace: "invariants-\(UUID().uuidString)")

    /// Runs `sql` on the store's namespace over a connection of its own, behind the store's back.
    func edit(_ sql: String) throws {
        let connection = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        try PostgresCatalog.use(configuration.namespace, on: connection)
        try connection.execute(sql)
    }

    @Test func aSavedStoreKeepsEveryInvariant() throws {
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        try FixtureDomain.writeSample(into: store)
        #expect(try store.invariantViolations() == [])
    }

    @Test func aOneToOneWhoseColumnsDisagreeIsFound() throws {
        defer { try? PostgresStore.dropStore(configuration) }
        try FixtureDomain.writeSample(into: try PostgresStore(configuration))
        // Dune's sequel column cleared while Dune Messiah's prequel column still names Dune.
        try edit(#"UPDATE "Book" SET "sequel" = NULL WHERE "title" = 'Dune'"#)
        let found = try PostgresStore(configuration).invariantViolations()
        #expect(found.count == 1)
        #expect(found.first?.contains(".prequel names Book 1, whose sequel does not name it back") == true)
    }

    @Test func valuesAUniqueConstraintForbidsAreFound() throws {
        defer { try? PostgresStore.dropStore(configuration) }
        try FixtureDomain.writeSample(into: try PostgresStore(configuration))
        try edit(#"DROP INDEX "Library__unique_0"; UPDATE "Library" SET "name" = 'Central'"#)
        let found = try PostgresStore(configuration).invariantViolations()
        #expect(found == ["Library 1 and 2 share the values of unique constraint 0 (name)"])
    }
}
