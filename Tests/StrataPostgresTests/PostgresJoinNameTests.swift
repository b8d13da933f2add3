import Foundation
@_spi(StrataEngine) import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// Join table names on PostgreSQL (docs/formats/sqlite.md, "Join table names"): a migration to a
/// schema in which an existing many-to-many pair starts to collide renames its table to the
/// escaped name, and its links move with it.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresJoinNameTests {
    @Test func aMigrationThatMakesAPairCollideKeepsItsLinks() throws {
        let (v1, v2) = (CollidingJoinSchemas.v1, CollidingJoinSchemas.v2)
        let namespace = "join-names-\(UUID().uuidString)"
        func configuration(_ schema: Schema) -> PostgresStoreConfiguration { PostgresStoreConfiguration(url: PostgresTestServer.url, schema: schema, namespace: namespace) }
        defer { try? PostgresStore.dropStore(configuration(v2)) }
        do {
            let store = try PostgresStore(configuration(v1))
            let a = try DefaultSnapshot.inserting(v1.entity(named: "A")!, values: ["name": .string("a")])
            let x = try DefaultSnapshot.inserting(v1.entity(named: "X")!, values: ["name": .string("x")], relationships: ["y_z": .toMany([a.persistentIdentifier])])
            _ = try store.save(SaveRequest(inserted: [a, x]))
        }
        try PostgresStore.migrateStore(configuration(v2), SchemaMigration.lightweight(from: v1, to: v2))
        let store = try PostgresStore(configuration(v2))
        let a = try #require(try store.fetch(FetchDescriptor(entity: "A")).first)
        let x = try #require(try store.fetch(FetchDescriptor(entity: "X")).first)
        #expect(a.relationshipValue(at: 0) == .toMany([x.persistentIdentifier]), "A.b_c after the migration")
        let b = try DefaultSnapshot.inserting(v2.entity(named: "A_b")!)
        let y = try DefaultSnapshot.inserting(v2.entity(named: "X_y")!, relationships: ["z": .toMany([b.persistentIdentifier])])
        _ = try store.save(SaveRequest(inserted: [b, y]))
        #expect(try store.fetch(FetchDescriptor(entity: "A")).first?.relationshipValue(at: 0) == .toMany([x.persistentIdentifier]), "A.b_c beside a linked A_b.c")
        #expect(try store.fetch(FetchDescriptor(entity: "A_b")).first?.relationshipValue(at: 0).targets.count == 1, "A_b.c")
    }
}
