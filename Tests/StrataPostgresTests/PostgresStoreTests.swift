import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Testing

/// `PostgresStore` opening, refusing and reading on the real server.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresStoreTests {
    let namespace = "store-\(UUID().uuidString)"
    let schema = try! Schema {
        Entity("Item") {
            Attribute("name", .string, optional: true)
            Attribute("price", .double, optional: true)
            Attribute("link", .url, optional: true)
            Attribute("blob", .data, optional: true)
        }
    }

    func configuration(_ url: String? = PostgresTestServer.url, readOnly: Bool = false) -> PostgresStoreConfiguration {
        PostgresStoreConfiguration(url: url, schema: schema, namespace: namespace, isReadOnly: readOnly)
    }

    @Test("a store opens over the Unix socket and loopback TCP, with one identifier; removing it drops the namespace")
    func openReopenRemove() throws {
        let store = try PostgresStore(configuration())
        let overTCP = try PostgresStore(configuration(PostgresTestServer.tcpURL))
        #expect(overTCP.identifier == store.identifier)
        #expect(try PostgresStore(configuration(readOnly: true)).identifier == store.identifier)
        try PostgresStore.dropStore(configuration())
        #expect { try PostgresStore(configuration(readOnly: true)) } throws: { ($0 as? StrataError)?.code == .ioFailure }
    }

    @Test("a read-only open of an empty namespace creates nothing")
    func readOnlyCreatesNothing() throws {
        #expect { try PostgresStore(configuration(readOnly: true)) } throws: { ($0 as? StrataError)?.code == .ioFailure }
        let connection = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        let found = try connection.query("SELECT count(*) FROM pg_namespace WHERE nspname = convert_from($1, 'UTF8')", [.text(namespace)])
        #expect(found.integer(0, 0) == 0)
    }

    @Test("rows written in SQL read back as the values the codec wrote: strings, NaN, −0, URLs, bytes")
    func readsRows() throws {
        let store = try PostgresStore(configuration())
        let connection = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        try PostgresCatalog.use(namespace, on: connection)
        let values: [(String?, Double?, String?, Data?)] = [
            ("a\u{0}b", .nan, "https://example.com/a", Data([0, 1, 2])), ("B", -0.0, nil, Data()), (nil, nil, nil, nil), ("é", 2.5, nil, nil),
        ]
        for (i, (name, price, link, blob)) in values.enumerated() {
            let (main, bits) = price.map { SQLValueCodec.encode(.double($0)) } ?? (.null, .null)
            try connection.query(
                "INSERT INTO \"Item\" (\"_pk\", \"name\", \"price\", \"price__bits\", \"link\", \"blob\") VALUES ($1, $2, $3, $4, $5, $6)",
                [.integer(Int64(i + 1)), name.map { .text($0) } ?? .null, main, bits, link.map { .text($0) } ?? .null, blob.map { .blob($0) } ?? .null])
        }
        let fetched = try store.fetch(FetchDescriptor(entity: "Item", sortBy: [SortKey("name")]))
        #expect(fetched.map { $0.attributeValue(at: 0) } == [.null, .string("B"), .string("a\u{0}b"), .string("é")])
        let first = try #require(try store.snapshot(for: PersistentIdentifier(storeIdentifier: store.identifier, entityName: "Item", primaryKey: 1)))
        guard case .double(let nan) = first.attributeValue(at: 1) else { Issue.record("not a double"); return }
        #expect(nan.isNaN)
        #expect(first.attributeValue(at: 2) == .url(URL(string: "https://example.com/a")!))
        #expect(first.attributeValue(at: 3) == .data(Data([0, 1, 2])))
        let second = try #require(try store.snapshot(for: PersistentIdentifier(storeIdentifier: store.identifier, entityName: "Item", primaryKey: 2)))
        guard case .double(let zero) = second.attributeValue(at: 1) else { Issue.record("not a double"); return }
        #expect(zero == 0 && zero.sign == .minus)
        #expect(try store.fetchCount(FetchDescriptor(entity: "Item", predicate: .compare("name", .equal, .string("é")))) == 1)
        // The case-insensitive comparator: "a\0b" < "B" < "é", ties none.
        let folded = try store.fetchIdentifiers(FetchDescriptor(entity: "Item", sortBy: [SortKey("name", comparator: .caseInsensitive)], fetchLimit: 2, fetchOffset: 1))
        #expect(folded.map(\.primaryKey) == [1, 2])
    }

    @Test("caseInsensitive sorts and searches in SQL as Swift lowercases: a final capital sigma, İ, NUL inside a value")
    func caseInsensitiveInSQL() throws {
        let store = try PostgresStore(configuration())
        defer { try? PostgresStore.dropStore(configuration()) }
        let names = ["ΟΔΟΣ", "οδοσ", "οδος", "İb", "ib", "a\u{0}B", "a\u{0}a", "A", "a", "", "Σa"]
        let entity = schema.entity(named: "Item")!
        _ = try store.save(SaveRequest(inserted: try names.map { try DefaultSnapshot.inserting(entity, values: ["name": .string($0)]) } + [try DefaultSnapshot.inserting(entity)]))
        for order in [Strata.SortOrder.ascending, .descending] {
            let sorted = try store.fetch(FetchDescriptor(entity: "Item", sortBy: [SortKey("name", order: order, comparator: .caseInsensitive)]))
            var expected = names.sorted { StringComparator.caseInsensitive.compare($0, $1) < 0 }.map(Value.string)
            expected.insert(.null, at: 0)
            #expect(sorted.map { $0.attributeValue(at: 0) } == (order == .ascending ? expected : expected.reversed()))
        }
        for pattern in ["οδοσ", "ΣA", "\u{0}b", "İ"] {
            let found = try store.fetch(FetchDescriptor(entity: "Item", predicate: .text("name", .contains, pattern, caseInsensitive: true)))
            let expected = Set(names.filter { $0.lowercased().range(of: pattern.lowercased(), options: .literal) != nil })
            #expect(Set(found.compactMap { if case .string(let s) = $0.attributeValue(at: 0) { s } else { nil } }) == expected, "contains \(pattern)")
        }
    }
}
