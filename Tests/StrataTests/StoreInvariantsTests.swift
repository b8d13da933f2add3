import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

/// `StoreInvariants`, the after-save check of SQLite and LMDB (docs/architecture.md, "Internal
/// checks"): it finds each kind of broken state it is meant to find, and nothing in a sound one.
struct StoreInvariantsTests {
    static let schema = try! Schema {
        Entity("Owner") {
            Attribute("name", .string, unique: true)
            Relationship.toMany("items", "Item", inverse: "owner", ordered: true)
            Relationship.toOne("partner", "Owner", inverse: "partner")
        }
        Entity("Item") {
            Attribute("name", .string)
            Attribute("weight", .double, optional: true)
            Relationship.toOne("owner", "Owner", inverse: "items", deleteRule: .noAction)
            UniqueConstraint("owner", "weight")
        }
    }
    static let owner = schema.entity(named: "Owner")!
    static let item = schema.entity(named: "Item")!

    static func id(_ entity: EntitySchema, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "s", entityName: entity.name, primaryKey: key)
    }
    static func owner(_ key: Int64, _ name: String, items: [Int64], partner: Int64? = nil) -> DefaultSnapshot {
        DefaultSnapshot(entity: owner, persistentIdentifier: id(owner, key), attributes: [.string(name)],
                        relationships: [.toMany(items.map { id(item, $0) }), .toOne(partner.map { id(owner, $0) })])
    }
    static func item(_ key: Int64, owner: Int64?, weight: Double? = nil) -> DefaultSnapshot {
        DefaultSnapshot(entity: item, persistentIdentifier: id(item, key), attributes: [.string("i\(key)"), weight.map(Value.double) ?? .null],
                        relationships: [.toOne(owner.map { id(Self.owner, $0) })])
    }
    func violations(_ owners: [DefaultSnapshot], _ items: [DefaultSnapshot]) -> [String] {
        StoreInvariants.violations(Self.schema, storeIdentifier: "s", records: [owners, items])
    }

    @Test func aSoundStateHasNone() {
        // A dangling to-one (item 3's owner 9 was deleted with noAction), NaN and nil weights that never collide, −0 beside +1.
        let owners = [Self.owner(1, "a", items: [2, 1], partner: 2), Self.owner(2, "b", items: [4, 5], partner: 1)]
        let items = [Self.item(1, owner: 1, weight: .nan), Self.item(2, owner: 1, weight: .nan), Self.item(3, owner: 9, weight: 1),
                     Self.item(4, owner: 2, weight: -0.0), Self.item(5, owner: 2, weight: 1)]
        #expect(violations(owners, items) == [])
    }

    @Test func sidesThatDisagreeAreFound() {
        // Item 1 names owner 1, whose list does not name it; owner 2's one-to-one partner is not returned.
        let found = violations([Self.owner(1, "a", items: [], partner: 2), Self.owner(2, "b", items: [])], [Self.item(1, owner: 1)])
        #expect(found.count == 2)
        #expect(found.contains { $0.contains("Item 1.owner names Owner 1, whose items does not name it back") })
        #expect(found.contains { $0.contains("Owner 1.partner names Owner 2, whose partner does not name it back") })
    }

    @Test func aToManyListingAMissingOrRepeatedRecordIsFound() {
        let found = violations([Self.owner(1, "a", items: [1, 7, 1])], [Self.item(1, owner: 1)])
        #expect(found.contains { $0.contains("lists Item 7, which does not exist") })
        #expect(found.contains { $0.contains("lists Item 1 twice") })
    }

    @Test func sharedUniqueValuesAreFound() {
        // −0 and +0 are one key; a composite with a to-one part.
        let found = violations([Self.owner(1, "a", items: [1, 2]), Self.owner(2, "a", items: [])],
                               [Self.item(1, owner: 1, weight: 0), Self.item(2, owner: 1, weight: -0.0)])
        #expect(found.count == 2)
        #expect(found.contains { $0.contains("Owner 1 and 2 share the values of unique constraint 0 (name)") })
        #expect(found.contains { $0.contains("Item 1 and 2 share the values of unique constraint 0 (owner, weight)") })
    }

    @Test func wrongShapesAndForeignRecordsAreFound() {
        let wrongKind = DefaultSnapshot(entity: Self.owner, persistentIdentifier: Self.id(Self.owner, 1), attributes: [.string("a")], relationships: [.toOne(nil), .toOne(nil)])
        let foreign = DefaultSnapshot(entity: Self.item, persistentIdentifier: PersistentIdentifier(storeIdentifier: "t", entityName: "Item", primaryKey: 1), attributes: [.string("x"), .null], relationships: [.toOne(nil)])
        let found = violations([wrongKind, Self.owner(1, "b", items: [])], [foreign])
        #expect(found.contains { $0.contains("Owner 1.items: a to-one value for a to-many relationship") })
        #expect(found.contains { $0.contains("Owner 1 read back twice") })
        #expect(found.contains { $0.contains("Item: a record read back as") })
    }
}
