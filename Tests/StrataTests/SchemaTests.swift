import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

struct SchemaTests {
    static func invalid(_ entities: [Entity]) -> StrataError? {
        do { _ = try Schema(entities: entities); return nil } catch let e as StrataError { return e } catch { return nil }
    }

    @Test func rejectsMissingInverse() {
        let e = Self.invalid([
            Entity("A") { Relationship.toMany("bs", "B", inverse: "a") },
            Entity("B") { Attribute("x", .int) },
        ])
        #expect(e?.code == .invalidSchema)
        #expect(e?.message.contains("inverse 'a'") == true)
    }

    @Test func rejectsInverseThatDoesNotPointBack() {
        let e = Self.invalid([
            Entity("A") {
                Relationship.toMany("bs", "B", inverse: "a")
                Relationship.toMany("others", "B", inverse: "a")
            },
            Entity("B") { Relationship.toOne("a", "A", inverse: "others") },
        ])
        #expect(e?.code == .invalidSchema)
        #expect(e?.properties == ["bs"])
    }

    @Test func rejectsDuplicateNames() {
        #expect(Self.invalid([Entity("A") { Attribute("x", .int); Attribute("x", .string) }])?.code == .invalidSchema)
        #expect(Self.invalid([Entity("A") { Attribute("x", .int) }, Entity("A") { Attribute("y", .int) }])?.code == .invalidSchema)
    }

    @Test func rejectsUniqueOverToMany() {
        let e = Self.invalid([
            Entity("A") { Relationship.toMany("bs", "B", inverse: "a"); UniqueConstraint("bs") },
            Entity("B") { Relationship.toOne("a", "A", inverse: "bs") },
        ])
        #expect(e?.message.contains("to-many") == true)
    }

    @Test func rejectsUnknownDestinationAndBadBounds() {
        #expect(Self.invalid([Entity("A") { Relationship.toOne("b", "Nope", inverse: "a") }])?.code == .invalidSchema)
        let e = Self.invalid([
            Entity("A") { Relationship.toMany("bs", "B", inverse: "a", minCount: 3, maxCount: 1) },
            Entity("B") { Relationship.toOne("a", "A", inverse: "bs") },
        ])
        #expect(e?.message.contains("minCount") == true)
    }

    @Test func rejectsDefaultOfWrongType() {
        #expect(Self.invalid([Entity("A") { Attribute("x", .string, default: 3) }])?.code == .invalidSchema)
    }

    @Test func fingerprintIsStableAndSensitive() throws {
        let entities = [Entity("A") { Attribute("x", .int); Attribute("y", .string, optional: true) }]
        let a = try Schema(entities: entities)
        let b = try Schema(entities: entities)
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint.count == 32)
        var changed = entities
        changed[0].attributes[1].isOptional = false
        #expect(try Schema(entities: changed).fingerprint != a.fingerprint)
    }

    @Test func codableRoundTripKeepsFingerprint() throws {
        let schema = try Schema {
            Entity("Owner") { Attribute("name", .string, unique: true); Relationship.toMany("items", "Item", inverse: "owner", ordered: true, deleteRule: .cascade) }
            Entity("Item") { Attribute("price", .double, default: 1.5); Relationship.toOne("owner", "Owner", inverse: "items", optional: false); Index("price") }
        }
        let data = try JSONEncoder().encode(schema)
        let decoded = try JSONDecoder().decode(Schema.self, from: data)
        #expect(decoded.fingerprint == schema.fingerprint)
        #expect(decoded.entity(named: "Item")?.indexes.count == 1)
        #expect(decoded.entity(named: "Owner")?.uniqueConstraints.count == 1)
    }

    @Test func integerDefaultForDoubleIsConverted() {
        #expect(Attribute("p", .double, default: 2).defaultValue == .double(2))
    }
}
