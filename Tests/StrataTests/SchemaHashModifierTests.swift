import Foundation
import Strata
import Testing

/// Hash modifiers (SwiftData's `hashModifier:`) in the core: part of the fingerprint when set,
/// invisible when not, kept by the recorded schema, which says it needs a newer reader.
@Suite struct SchemaHashModifierTests {
    /// A schema with an attribute and a relationship on each side, marked as asked.
    private static func shop(name: String? = nil, items: String? = nil) throws -> Schema {
        try Schema {
            Entity("Owner") {
                Attribute("name", .string, unique: true, hashModifier: name)
                Relationship.toMany("items", "Item", inverse: "owner", ordered: true, deleteRule: .cascade, hashModifier: items)
            }
            Entity("Item") {
                Attribute("price", .double)
                Relationship.toOne("owner", "Owner", inverse: "items", optional: false)
                Index("price")
            }
        }
    }

    /// Without modifiers the canonical text and the fingerprint are the ones Strata computed before
    /// modifiers existed (the fingerprint as main at fb716fb computes it, by a transcription of
    /// `SchemaFingerprint.compute` checked against Tests/Fixtures/LegacyStores/json), so every store
    /// written before opens unchanged.
    @Test func noModifierKeepsTheFingerprintOfBefore() throws {
        let schema = try Self.shop()
        #expect(schema.canonicalDescription == [
            "entity Owner",
            " attr name string opt=false uniq=true idx=false def=-",
            " rel items -> Item.owner many=true ord=true opt=true rule=cascade min=- max=-",
            "entity Item",
            " attr price double opt=false uniq=false idx=false def=-",
            " rel owner -> Owner.items many=false ord=false opt=false rule=nullify min=- max=-",
            " index price",
        ])
        #expect(schema.fingerprint == "a1f06572bbb84d305ba5404e282dcaa9")
        #expect(String(decoding: RecordedSchema(schema).encoded(), as: UTF8.self).contains(#""format":1"#))
    }

    /// A modifier, and nothing else, makes another schema: on an attribute, on a relationship, and
    /// one modifier against another; the difference names the property.
    @Test func aModifierAloneChangesTheFingerprint() throws {
        let plain = try Self.shop()
        let named = try Self.shop(name: "v2"), named3 = try Self.shop(name: "v3"), linked = try Self.shop(items: "v2")
        let fingerprints = Set([plain, named, named3, linked].map(\.fingerprint))
        #expect(fingerprints.count == 4)
        #expect(named.differences(fromStored: plain.canonicalDescription) == [
            #"Owner.name: attribute changed from "string opt=false uniq=true idx=false def=-" to "string opt=false uniq=true idx=false def=- hash="v2"""#
        ])
        #expect(linked.differences(fromStored: plain.canonicalDescription).map { $0.hasPrefix("Owner.items: relationship changed") } == [true])
    }

    /// A modifier cannot pass for another field or line: it is quoted and escaped.
    @Test func aModifierIsQuotedInTheCanonicalText() throws {
        let tricky = try Self.shop(name: "x\" def=1\nentity Z")
        #expect(tricky.canonicalDescription.count == 7)
        #expect(tricky.canonicalDescription[1].hasSuffix(#" hash="x\" def=1\nentity Z""#))
    }

    /// A lightweight migration between two marks changes no data: every value is copied.
    @Test func aModifierChangeIsLightweightWithNoDataChange() throws {
        let migration = try SchemaMigration.lightweight(from: try Self.shop(), to: try Self.shop(name: "v2", items: "v2"))
        #expect(migration.changes.isEmpty)
        #expect(migration.entities.map(\.source) == [0, 1])
    }

    /// The recorded schema keeps the modifiers (its declaration's fingerprint must match the
    /// recorded one), and a record holding one is format 2, which a Strata reading up to format 1
    /// refuses as newer instead of calling it damaged.
    @Test func theRecordKeepsModifiersAsFormat2() throws {
        let schema = try Self.shop(name: "v2", items: "links")
        let bytes = RecordedSchema(schema).encoded()
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""format":2"#))
        let decoded = try RecordedSchema(decoding: bytes)
        #expect(decoded.fingerprint == schema.fingerprint)
        #expect(decoded.schema?.entity(named: "Owner")?.declaration.attributes[0].hashModifier == "v2")
        #expect(decoded.schema?.entity(named: "Owner")?.declaration.relationships[0].hashModifier == "links")
        let newer = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""format":2"#, with: #""format":3"#).utf8)
        let refusal = #expect(throws: StrataError.self) { try RecordedSchema(decoding: newer) }
        #expect(refusal?.code == .unsupported)
    }
}
