import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Testing

/// The shared SQL layer's mapping and queries in PostgreSQL's dialect, on the real server: tables
/// with native constraints, queries with bound parameters, the contract's orders.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresMappingTests {
    let connection: PostgresConnection
    let namespace = "mapping-\(UUID().uuidString)"
    let schema = try! Schema {
        Entity("Owner") {
            Attribute("name", .string, unique: true)
            Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade)
        }
        Entity("Item") {
            Attribute("name", .string, optional: true)
            Attribute("price", .double, optional: true)
            Relationship.toOne("owner", "Owner", inverse: "items")
        }
    }
    let mapping: SQLMapping
    let opened: PostgresCatalog.Opened

    static let names: [String?] = ["b", "B", "a", "é", "a\u{0}", "", nil, "Z", "ä", "ab"]
    static let prices: [Double?] = [nil, 1.5, -0.0, 0.0, .nan, .infinity, -.infinity, -3, nil, 2]

    init() throws {
        connection = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        mapping = try SQLMapping(schema: schema, dialect: PostgresDialect.self)
        opened = try PostgresCatalog.openOrCreate(
            connection, namespace: namespace, schema: schema, ddl: mapping.ddl(PostgresDialect.self),
            entityTables: mapping.tables.map(\.name), file: namespace)
        try connection.query("INSERT INTO \"Owner\" (\"_pk\", \"name\") VALUES (1, $1)", [.text("Ada")])
        for (i, (name, price)) in zip(Self.names, Self.prices).enumerated() {
            let (main, bits) = price.map { SQLValueCodec.encode(.double($0)) } ?? (.null, .null)
            try connection.query(
                "INSERT INTO \"Item\" (\"_pk\", \"name\", \"price\", \"price__bits\", \"owner\") VALUES ($1, $2, $3, $4, 1)",
                [.integer(Int64(i + 1)), name.map { .text($0) } ?? .null, main, bits])
        }
    }

    /// The keys a descriptor selects, through the shared query builder.
    func keys(_ descriptor: FetchDescriptor) throws -> [Int64] {
        let entity = schema.entity(named: descriptor.entityName)!
        var query = SQLQuery<PostgresDialect>(mapping: mapping, storeIdentifier: opened.storeIdentifier)
        let sql = try query.select(descriptor, entity: entity, columns: mapping.texts[entity.index].columns)
        let rows = try connection.query(sql, query.parameters)
        return (0..<rows.count).map { rows.integer($0, 0)! }
    }

    /// The keys in the core's order of `values` (nil first, NaN after +infinity, −0 with 0, strings
    /// by bytes), ties by key.
    func expected(_ values: [Value], descending: Bool = false) -> [Int64] {
        values.indices.sorted { a, b in
            let order = Value.sortOrder(values[a], values[b])
            return order != 0 ? (descending ? order > 0 : order < 0) : a < b
        }.map { Int64($0 + 1) }
    }

    @Test("sorting by a double: nil first, −0 with 0, NaN after +infinity, both directions")
    func doubleOrder() throws {
        let values = Self.prices.map { $0.map(Value.double) ?? .null }
        #expect(try keys(FetchDescriptor(entity: "Item", sortBy: [SortKey("price")])) == expected(values))
        #expect(try keys(FetchDescriptor(entity: "Item", sortBy: [SortKey("price", order: .descending)])) == expected(values, descending: true))
    }

    @Test("sorting by a string: by UTF-8 bytes (uppercase before lowercase, NUL before letters)")
    func stringOrder() throws {
        let values = Self.names.map { $0.map(Value.string) ?? .null }
        #expect(try keys(FetchDescriptor(entity: "Item", sortBy: [SortKey("name")])) == expected(values))
    }

    @Test("comparisons and text tests, all with bound parameters")
    func predicates() throws {
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .compare("price", .less, .double(1)), sortBy: [SortKey("price")])) == [7, 8, 3, 4])
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .compare("price", .equal, .double(.nan)))) == [])
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .text("name", .hasPrefix, "a", caseInsensitive: false))) == [3, 5, 10])
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .text("name", .contains, "\u{0}", caseInsensitive: false))) == [5])
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .text("name", .hasSuffix, "b", caseInsensitive: false))) == [1, 10])
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .isNil("name"))) == [7])
        #expect(try keys(FetchDescriptor(entity: "Item", predicate: .compare("name", .equal, .string("'; DROP TABLE \"Item\"; --")))) == [])
        #expect(try keys(FetchDescriptor(entity: "Item", sortBy: [SortKey("price")], fetchLimit: 2, fetchOffset: 1)) == Array(expected(Self.prices.map { $0.map(Value.double) ?? .null })[1...2]))
    }

    @Test("psql shows the UNIQUE index and the FOREIGN KEY with its delete rule")
    func nativeConstraints() throws {
        let foreignKeys = try connection.query("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' AND connamespace = to_regnamespace(convert_from($1, 'UTF8'))", [.text(PostgresCatalog.quote(namespace))])
        #expect(foreignKeys.count == 1)
        #expect(foreignKeys.value(0, 0) == .text("FOREIGN KEY (owner) REFERENCES \"Owner\"(_pk) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"))
        #expect(throws: PostgresError.self) { try connection.query("INSERT INTO \"Owner\" (\"_pk\", \"name\") VALUES (2, $1)", [.text("Ada")]) }
    }

    @Test("the last key handed out survives deleting the highest record")
    func keysNeverReused() throws {
        let last = PostgresDialect.lastKeyQuery(table: "Item")
        #expect(try connection.query(last.sql, last.parameters).integer(0, 0) == 10)
        try connection.query("DELETE FROM \"Item\" WHERE \"_pk\" >= $1", [.integer(9)])
        #expect(try connection.query(last.sql, last.parameters).integer(0, 0) == 10)
        try connection.query("DELETE FROM \"Owner\"")   // cascades to every item
        #expect(try connection.query("SELECT count(*) FROM \"Item\"").integer(0, 0) == 0)
        #expect(try connection.query(last.sql, last.parameters).integer(0, 0) == 10)
    }

    @Test("a unique failure under attempt leaves the transaction usable; the save goes on")
    func attemptSurvivesUniqueFailure() throws {
        try connection.beginWrite()
        #expect(throws: PostgresError.self) {
            try connection.attempt { try connection.query("INSERT INTO \"Owner\" (\"_pk\", \"name\") VALUES (2, $1)", [.text("Ada")]) }
        }
        try connection.attempt { try connection.query("INSERT INTO \"Owner\" (\"_pk\", \"name\") VALUES (2, $1)", [.text("Grace")]) }
        try connection.commit()
        #expect(try connection.query("SELECT count(*) FROM \"Owner\"").integer(0, 0) == 2)
    }

    @Test("a save's transaction holds the store's write lock until it ends")
    func writeLock() throws {
        let other = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        try PostgresCatalog.use(namespace, on: other)
        try connection.beginWrite()
        let tryLock = "SELECT pg_try_advisory_xact_lock($1)"
        #expect(try other.query(tryLock, [.integer(other.writeLockKey)]).integer(0, 0) == 0)
        try connection.commit()
        try other.execute("BEGIN")
        #expect(try other.query(tryLock, [.integer(other.writeLockKey)]).integer(0, 0) == 1)
        try other.execute("ROLLBACK")
    }
}
