import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

struct EngineTests {
    static let schema = try! Schema {
        Entity("Owner") { Attribute("name", .string, unique: true); Relationship.toMany("items", "Item", inverse: "owner", ordered: true, deleteRule: .cascade) }
        Entity("Item") { Attribute("name", .string); Relationship.toOne("owner", "Owner", inverse: "items") }
    }

    @Test func loadingRejectsDamagedRecords() throws {
        let owner = Self.schema.entity(named: "Owner")!
        var state = StoreState(schema: Self.schema, storeIdentifier: "s")
        try state.load(owner, key: 1, record: StoredRecord(attributes: [.string("a")], links: [.many([])]))
        #expect(throws: StrataError.self) { try state.load(owner, key: 1, record: StoredRecord(attributes: [.string("b")], links: [.many([])])) }
        #expect(throws: StrataError.self) { try state.load(owner, key: 2, record: StoredRecord(attributes: [.int(1)], links: [.many([])])) }
        #expect(throws: StrataError.self) { try state.load(owner, key: 3, record: StoredRecord(attributes: [.string("c")], links: [.one(nil)])) }
        try state.load(owner, key: 4, record: StoredRecord(attributes: [.string("a")], links: [.many([])]))
        let error = try #require(throws: StrataError.self) { try state.finishLoading() }
        #expect(error.code == .corruptStore && error.identifiers.count == 2)
    }

    @Test func persistFailureCommitsNothing() throws {
        let engine = RecordEngine(state: StoreState(schema: Self.schema, storeIdentifier: "s"))
        let owner = try DefaultSnapshot.inserting(Self.schema.entity(named: "Owner")!, values: ["name": "a"])
        struct DiskFull: Error {}
        #expect(throws: DiskFull.self) { try engine.save(SaveRequest(inserted: [owner])) { _ in throw DiskFull() } }
        #expect(try engine.fetchCount(FetchDescriptor(entity: "Owner")) == 0)
        let result = try engine.save(SaveRequest(inserted: [owner])) { commit in
            #expect(commit.changes.inserted[0].count == 1)
            #expect(commit.previous.count(Self.schema.entities[0]) == 0)
        }
        #expect(result.remappedIdentifiers.count == 1)
    }

    @Test func largeFanInStaysConsistent() throws {
        let engine = RecordEngine(state: StoreState(schema: Self.schema, storeIdentifier: "s"))
        let owner = try DefaultSnapshot.inserting(Self.schema.entity(named: "Owner")!, values: ["name": "o"])
        let items = try (0..<5_000).map { try DefaultSnapshot.inserting(Self.schema.entity(named: "Item")!, values: ["name": .string("i\($0)")], relationships: ["owner": .toOne(owner.persistentIdentifier)]) }
        let result = try engine.save(SaveRequest(inserted: [owner] + items))
        let stored = try engine.fetch(FetchDescriptor(entity: "Owner"), as: DefaultSnapshot.self)[0]
        #expect(stored.relationships[0].targets == items.map { result.remappedIdentifiers[$0.persistentIdentifier]! })
    }

    @Test func snapshotReaderEvaluatesPredicates() throws {
        let item = Self.schema.entity(named: "Item")!
        let snapshots = try ["apple", "Banana", "cherry"].map { try DefaultSnapshot.inserting(item, values: ["name": .string($0)]) }
        let evaluator = PredicateEvaluator(schema: Self.schema, reader: SnapshotReader<DefaultSnapshot> { _ in nil })
        let test = try evaluator.compile(.text("name", .contains, "AN", caseInsensitive: true) || .compare("name", .equal, "cherry"), for: item)
        #expect(snapshots.filter(test).map { $0["name"] } == ["Banana", "cherry"])
        #expect(throws: StrataError.self) { try evaluator.compile(.compare("nope", .equal, 1), for: item) }
    }

    @Test func defaultSnapshotCodableNeedsSchema() throws {
        let item = Self.schema.entity(named: "Item")!
        let s = try DefaultSnapshot.inserting(item, values: ["name": "x"])
        let data = try JSONEncoder().encode(s)
        let decoder = JSONDecoder()
        #expect(throws: StrataError.self) { try decoder.decode(DefaultSnapshot.self, from: data) }
        decoder.userInfo[.strataSchema] = Self.schema
        #expect(try decoder.decode(DefaultSnapshot.self, from: data) == s)
    }
}
