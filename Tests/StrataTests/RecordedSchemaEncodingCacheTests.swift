import Foundation
import Strata
import Testing

/// `RecordedSchema.encoded(_:)` keeps the records it encoded: each answer must be the record of the
/// schema asked for, also for schemas a fingerprint cannot tell apart.
@Suite struct RecordedSchemaEncodingCacheTests {
    private static func notes(originalName: String? = nil, version: Schema.Version = Schema.Version(1, 0, 0)) throws -> Schema {
        try Schema(entities: [
            Entity("Note") {
                Attribute("title", .string, originalName: originalName)
                Attribute("words", .int)
            }
        ], version: version)
    }

    @Test func anEncodingIsTheRecordOfItsSchema() throws {
        let schema = try Self.notes()
        let first = RecordedSchema.encoded(schema)
        #expect(first == RecordedSchema(schema).encoded())
        #expect(RecordedSchema.encoded(schema) == first)
        #expect(try RecordedSchema(decoding: first).schema?.entities.map(\.declaration) == schema.entities.map(\.declaration))
    }

    /// `originalName` is not part of the fingerprint (a rename hint changes no stored shape), but it
    /// is part of the record: a cache keyed by the fingerprint would hand one schema's record to the
    /// other.
    @Test func schemasOfOneFingerprintKeepTheirOwnRecords() throws {
        let plain = try Self.notes(), renamed = try Self.notes(originalName: "heading")
        #expect(plain.fingerprint == renamed.fingerprint)
        let plainBytes = RecordedSchema.encoded(plain), renamedBytes = RecordedSchema.encoded(renamed)
        #expect(plainBytes != renamedBytes)
        #expect(renamedBytes == RecordedSchema(renamed).encoded())
        #expect(RecordedSchema.encoded(plain) == RecordedSchema(plain).encoded())
    }

    @Test func versionsKeepTheirOwnRecords() throws {
        let one = try Self.notes(), two = try Self.notes(version: Schema.Version(2, 0, 0))
        let oneBytes = RecordedSchema.encoded(one), twoBytes = RecordedSchema.encoded(two)
        #expect(oneBytes != twoBytes)
        #expect(try RecordedSchema(decoding: twoBytes).version == Schema.Version(2, 0, 0))
        #expect(RecordedSchema.encoded(one) == oneBytes)
    }
}
