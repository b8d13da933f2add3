import Testing
@_spi(StrataEngine) @testable import Strata

/// `schemaMismatch` says what differs, from the description a store keeps beside the fingerprint.
struct SchemaDifferenceTests {
    static let stored = try! Schema {
        Entity("Owner") {
            Attribute("name", .string)
            Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade)
        }
        Entity("Item") {
            Attribute("name", .string, unique: true)
            Attribute("price", .double, default: 0)
            Relationship.toOne("owner", "Owner", inverse: "items")
        }
        Entity("Gone") { Attribute("x", .int) }
    }

    @Test func listsEntitiesAndPropertiesAddedRemovedAndChanged() throws {
        let current = try Schema {
            Entity("Owner") {
                Attribute("name", .string)
                Attribute("email", .string, optional: true)
                Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .nullify)
            }
            Entity("Item") {
                Attribute("name", .string, unique: true)
                Attribute("price", .int, default: 0)
                Relationship.toOne("owner", "Owner", inverse: "items")
            }
            Entity("New") { Attribute("y", .int) }
        }
        let differences = current.differences(fromStored: Self.stored.canonicalDescription)
        #expect(differences.contains("entity Gone: only in the store"))
        #expect(differences.contains("entity New: only in this schema"))
        #expect(differences.contains("Owner.email: attribute only in this schema"))
        #expect(differences.contains { $0.hasPrefix("Owner.items: relationship changed from") && $0.contains("rule=cascade") && $0.contains("rule=nullify") })
        #expect(differences.contains { $0.hasPrefix("Item.price: attribute changed from \"double") })
        #expect(differences.count == 5, "\(differences)")
        let error = current.mismatch(storedFingerprint: Self.stored.fingerprint, storedDescription: Self.stored.canonicalDescription)
        #expect(error.code == .schemaMismatch && error.message.contains("entity Gone: only in the store"))
    }

    @Test func theSameSchemaHasNoDifferencesAndTheFingerprintIsUnchanged() throws {
        #expect(Self.stored.differences(fromStored: Self.stored.canonicalDescription).isEmpty)
        // The fingerprint hashes exactly the description, as it did before the description was exposed.
        #expect(SchemaFingerprint.compute(Self.stored.entities.map(\.declaration)) == Self.stored.fingerprint)
        #expect(Self.stored.canonicalDescription.first == "entity Owner")
    }
}
