import Strata
import StrataMemory
import Testing

/// The store-level example of docs/writing-a-backend.md (section 0), verbatim, so it cannot drift from the code.
@Test func readmeExampleRuns() throws {
    let schema = try Schema {
        Entity("Owner") {
            Attribute("name", .string)
            Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade)
        }
        Entity("Item") {
            Attribute("name", .string, unique: true)
            Attribute("price", .double, default: 0)
            Relationship.toOne("owner", "Owner", inverse: "items")
        }
    }
    let store = try MemoryStore(MemoryStoreConfiguration(name: "shop-\(UInt64.random(in: 0...UInt64.max))", schema: schema))
    let ada = try DefaultSnapshot.inserting(schema.entity(named: "Owner")!, values: ["name": "Ada"])
    let pen = try DefaultSnapshot.inserting(schema.entity(named: "Item")!, values: ["name": "pen", "price": 1.5],
                                            relationships: ["owner": .toOne(ada.persistentIdentifier)])
    let saved = try store.save(SaveRequest(inserted: [ada, pen]))
    let cheap = try store.fetch(FetchDescriptor(entity: "Item", predicate: .compare("price", .less, 2.0),
                                                sortBy: [SortKey("name")]))
    #expect(cheap.map { $0["name"] } == ["pen"])
    let owner = try #require(saved.remappedIdentifiers[ada.persistentIdentifier])
    #expect(try store.fetch(FetchDescriptor(entity: "Owner", predicate: .identifierIn([owner])))[0].relationships[0].targets.count == 1)

    let duplicate = try DefaultSnapshot.inserting(schema.entity(named: "Item")!, values: ["name": "pen"], relationships: ["owner": .toOne(owner)])
    #expect(throws: StrataError.self) { try store.save(SaveRequest(inserted: [duplicate])) }
    let stored = try store.fetch(FetchDescriptor(entity: "Owner"))
    _ = try store.save(SaveRequest(deleted: stored))
    #expect(try store.fetchCount(FetchDescriptor(entity: "Item")) == 0)
}
