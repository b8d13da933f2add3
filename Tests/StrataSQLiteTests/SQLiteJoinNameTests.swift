import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataSQLite
import StrataSQLSupport
import StrataTestSupport
import Testing

/// Join table names (docs/formats/sqlite.md, "Join table names"): a pair whose plain name collides
/// with nothing keeps it, so stores written before open unchanged; colliding pairs take escaped
/// components, which hold no `_`.
struct SQLiteJoinNameTests {
    @Test func plainNamesAreKeptWhereNothingCollides() throws {
        let mapping = try SQLiteMapping(schema: FixtureDomain.schema)
        #expect(mapping.joins.map(\.name).sorted() == ["Author_books__Book_authors", "Author_favorites__Book_fans", "Member_friends__Member_friends_mirror"])
        #expect(mapping.joins.map(\.left).sorted() == ["Author_books", "Author_favorites", "Member_friends"])
    }

    @Test func collidingPairsTakeEscapedNames() throws {
        let schema = try Schema {
            Entity("A") { Relationship.toMany("b_c", "X", inverse: "y_z") }
            Entity("X") { Relationship.toMany("y_z", "A", inverse: "b_c") }
            Entity("A_b") { Relationship.toMany("c", "X_y", inverse: "z") }
            Entity("X_y") { Relationship.toMany("z", "A_b", inverse: "c") }
            Entity("K") { Relationship.toMany("m_n", "K_m", inverse: "n"); Relationship.toMany("other", "P", inverse: "ks") }
            Entity("K_m") { Relationship.toMany("n", "K", inverse: "m_n") }
            Entity("P") { Relationship.toMany("ks", "K", inverse: "other") }
        }
        let mapping = try SQLiteMapping(schema: schema)
        #expect(mapping.joins.map(\.name).sorted() == ["A%5Fb_c__X%5Fy_z", "A_b%5Fc__X_y%5Fz", "K%5Fm_n__K_m%5Fn", "K_other__P_ks"])
        #expect(Set(mapping.joins.flatMap { [$0.left, $0.right] }).count == 8, "every column distinct")
    }

    /// A migration to a schema in which an existing pair starts to collide: its table takes the
    /// escaped name, and its links move with it.
    @Test func aMigrationThatMakesAPairCollideKeepsItsLinks() throws {
        let (v1, v2) = (CollidingJoinSchemas.v1, CollidingJoinSchemas.v2)
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("s.sqlite")
        do {
            let store = try SQLiteStore(SQLiteStoreConfiguration(url: url, schema: v1))
            let a = try SQLiteSnapshot.inserting(v1.entity(named: "A")!, values: ["name": .string("a")])
            let x = try SQLiteSnapshot.inserting(v1.entity(named: "X")!, values: ["name": .string("x")], relationships: ["y_z": .toMany([a.persistentIdentifier])])
            _ = try store.save(SaveRequest(inserted: [a, x]))
        }
        try SQLiteStore.migrateStore(SQLiteStoreConfiguration(url: url, schema: v2), SchemaMigration.lightweight(from: v1, to: v2))
        let store = try SQLiteStore(SQLiteStoreConfiguration(url: url, schema: v2))
        let a = try #require(try store.fetch(FetchDescriptor(entity: "A")).first)
        let x = try #require(try store.fetch(FetchDescriptor(entity: "X")).first)
        #expect(a.relationshipValue(at: 0) == .toMany([x.persistentIdentifier]), "A.b_c after the migration")
        #expect(try SQLiteMapping(schema: v2).joins.map(\.name).sorted() == ["A%5Fb_c__X%5Fy_z", "A_b%5Fc__X_y%5Fz"])
    }
}
