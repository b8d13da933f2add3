import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataPostgres
import Testing

/// A read-only store on a hot standby of the primary the saves go to (docs/formats/postgres.md,
/// "Read replicas"): the test starts its own primary and a streaming replica of it.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresReplicaTests {
    /// Waits until the standby has replayed everything the primary has written so far: the
    /// standby's `pg_last_wal_replay_lsn()` reaching the primary's `pg_current_wal_lsn()`.
    static func waitForReplay(primary: PostgresConnection, standby: PostgresConnection) throws {
        let target = try primary.query("SELECT pg_current_wal_lsn()::text").value(0, 0)
        while try standby.query("SELECT (pg_last_wal_replay_lsn() >= convert_from($1, 'UTF8')::pg_lsn)::int::int8", [target]).integer(0, 0) != 1 {}
    }

    @Test("a read-only store on a hot standby sees the primary's saves once replayed; saves there fail with readOnlyStore")
    func hotStandby() async throws {
        try await onOwnThread {
            let primary = try PostgresPrivateCluster()
            defer { primary.remove() }
            let schema = FixtureDomain.schema
            let namespace = "replicated"
            let writer = try PostgresStore(PostgresStoreConfiguration(url: primary.url, schema: schema, namespace: namespace))
            let library = try schema.requireEntity("Library"), book = try schema.requireEntity("Book")
            func librarySave(_ name: String, books: Int) throws -> SaveRequest<DefaultSnapshot> {
                let lib = try DefaultSnapshot.inserting(library, values: ["name": .string(name)])
                let titles = try (0..<books).map { try DefaultSnapshot.inserting(book, values: ["title": .string("\(name)-\($0)")], relationships: ["library": .toOne(lib.persistentIdentifier)]) }
                return SaveRequest(inserted: [try lib.updating(relationships: ["books": .toMany(titles.map(\.persistentIdentifier))])] + titles)
            }
            _ = try writer.save(try librarySave("first", books: 3))

            let replica = try PostgresPrivateCluster(replicaOf: primary)
            defer { replica.remove() }
            let toPrimary = try PostgresConnection(settings: PostgresConnectionSettings(url: primary.url))
            let toStandby = try PostgresConnection(settings: PostgresConnectionSettings(url: replica.url))
            #expect(try toStandby.query("SELECT pg_is_in_recovery()::int::int8").integer(0, 0) == 1)
            try Self.waitForReplay(primary: toPrimary, standby: toStandby)
            let reader = try PostgresStore(PostgresStoreConfiguration(url: replica.url, schema: schema, namespace: namespace, isReadOnly: true))
            #expect(reader.identifier == writer.identifier)
            #expect(try reader.fetchCount(FetchDescriptor(entity: "Book")) == 3)

            // Saves there fail: the read-only store refuses them, and a writable open of the standby
            // is refused too (the server takes no writes).
            let refused = try #require(throws: StrataError.self) { try reader.save(try librarySave("on-standby", books: 1)) }
            #expect(refused.code == .readOnlyStore)
            let writable = try #require(throws: StrataError.self) { try PostgresStore(PostgresStoreConfiguration(url: replica.url, schema: schema, namespace: namespace)) }
            #expect(writable.code == .readOnlyStore, "\(writable)")

            // Later saves on the primary show up whole once replayed: every library with all its books.
            for n in 0..<20 { _ = try writer.save(try librarySave("later-\(n)", books: 1 + n % 3)) }
            try Self.waitForReplay(primary: toPrimary, standby: toStandby)
            let libraries = try reader.fetch(FetchDescriptor(entity: "Library", sortBy: [SortKey("name")]))
            #expect(libraries.count == 21)
            for lib in libraries {
                let name = lib["name"].string ?? ""
                let expected = name == "first" ? 3 : 1 + (Int(name.dropFirst(6)) ?? 0) % 3
                #expect(try lib.related("books").targets.count == expected, "\(name)")
            }
            let onPrimary = try writer.fetch(FetchDescriptor(entity: "Book", sortBy: [SortKey("title")])).map { $0["title"] }
            #expect(try reader.fetch(FetchDescriptor(entity: "Book", sortBy: [SortKey("title")])).map { $0["title"] } == onPrimary)
        }
    }
}
