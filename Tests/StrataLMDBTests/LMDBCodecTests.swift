import Foundation
@_spi(StrataEngine) import Strata
import Testing

@testable import StrataLMDB

/// The record and key encodings against their definitions: every value type round-trips, damage
/// is `corruptStore`, and value keys sort under byte order as `Value.sortOrder` sorts the values.
struct LMDBCodecTests {
    static let schema = try! Schema {
        Entity("Target") {
            Attribute("name", .string)
            Relationship.toMany("firsts", "Sample", inverse: "first")
            Relationship.toOne("owner", "Sample", inverse: "many")
            Relationship.toMany("seconds", "Sample", inverse: "second")
        }
        Entity("Sample") {
            Attribute("flag", .bool, optional: true)
            Attribute("count", .int, optional: true)
            Attribute("ratio", .double, optional: true)
            Attribute("text", .string, optional: true)
            Attribute("when", .date, optional: true)
            Attribute("blob", .data, optional: true)
            Attribute("uuid", .uuid, optional: true)
            Attribute("link", .url, optional: true)
            Relationship.toOne("first", "Target", inverse: "firsts")
            Relationship.toMany("many", "Target", inverse: "owner")
            Relationship.toOne("second", "Target", inverse: "seconds")
        }
    }

    static var sample: EntitySchema { schema.entity(named: "Sample")! }

    @Test func theKeyTagsFollowTheTypeOrder() {
        for (i, type) in AttributeType.allCases.enumerated() { #expect(LMDBKeyCodec.tag(type) == UInt8(i + 1)) }
    }

    @Test func everyValueTypeRoundTrips() throws {
        let entity = Self.sample
        let records = [
            LMDBRecord(attributes: [.bool(true), .int(-7), .double(-0.0), .string("é\u{0}" + String(repeating: "x", count: 200)), .date(Date(timeIntervalSinceReferenceDate: 12.5)),
                                    .data(Data([0, 1, 2, 255])), .uuid(UUID()), .url(URL(string: "https://example.com/a?b=c")!)], toOne: [3, nil, Int64.max]),
            LMDBRecord(attributes: Array(repeating: .null, count: 8), toOne: [nil, nil, nil]),
            LMDBRecord(attributes: [.bool(false), .int(.min), .double(.nan), .string(""), .date(Date(timeIntervalSinceReferenceDate: -1e9)), .data(Data()), .null, .null], toOne: [nil, nil, 1]),
        ]
        for record in records {
            let bytes = LMDBRecordCodec.encoded(record, entity, key: 1)
            #expect(bytes.count == LMDBRecordCodec.encodedSize(record, entity))
            let decoded = try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: 1, file: "test") }
            #expect(decoded.toOne == record.toOne)
            Self.expectSame(decoded.attributes, record.attributes)
            // What a fetch does instead (`LMDBSnapshot`): check the bytes, decode values on access.
            let links = try Self.check(bytes, entity, key: 1)
            #expect(Self.quickCheck(bytes, entity, key: 1) == (record.attributes[7].isNull ? links : nil), "only a URL sends a sound record to the full check")
            Self.expectSame(bytes.withUnsafeBytes { LMDBRecordCodec.checkedValues($0, entity) }, record.attributes)
            Self.expectSame(bytes.withUnsafeBytes { b in entity.attributes.indices.map { LMDBRecordCodec.checkedValue(at: $0, b, entity) } }, record.attributes)
            var toOne: [Int64?] = Array(repeating: nil, count: entity.relationships.count)
            bytes.withUnsafeBytes { LMDBRecordCodec.checkedToOne($0, entity, links: links) { toOne[$0] = $1 } }
            #expect(toOne == record.toOne)
        }
    }

    /// Equal values, doubles by bit pattern (−0, NaN).
    static func expectSame(_ values: [Value], _ expected: [Value]) {
        #expect(values.count == expected.count)
        for (a, b) in zip(values, expected) {
            if case .double(let x) = a, case .double(let y) = b { #expect(x.bitPattern == y.bitPattern) } else { #expect(a == b) }
        }
    }

    /// The fetch's fast pass over a record's bytes (`LMDBContext.check` runs it first).
    static func quickCheck(_ bytes: [UInt8], _ entity: EntitySchema, key: Int64) -> Int? {
        let steps = entity.attributeTypes.map(LMDBRecordCodec.checkStep(of:))
        let toOnes = entity.relationshipIsToMany.filter { !$0 }.count
        return bytes.withUnsafeBytes { b in steps.withUnsafeBufferPointer { LMDBRecordCodec.quickCheck(b, key: key, steps: $0, toOnes: toOnes) } }
    }

    /// The fetch's full check, which names the damage.
    static func check(_ bytes: [UInt8], _ entity: EntitySchema, key: Int64) throws -> Int {
        try bytes.withUnsafeBytes { try LMDBRecordCodec.check($0, entity, key: key, file: "test") }
    }

    @Test func everyCutOrFlippedByteIsCorruptNotACrash() throws {
        let entity = Self.sample
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .double(1.5), .string("hello"), .null, .data(Data([9])), .null, .null], toOne: [2, nil, nil])
        let bytes = LMDBRecordCodec.encoded(record, entity, key: 1)
        for length in 0..<bytes.count {
            #expect(throws: StrataError.self) { try Array(bytes[..<length]).withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: 1, file: "test") } }
            #expect(Self.quickCheck(Array(bytes[..<length]), entity, key: 1) == nil)
            #expect(throws: StrataError.self) { try Self.check(Array(bytes[..<length]), entity, key: 1) }
        }
        #expect(Self.quickCheck(bytes, entity, key: 1) != nil)
        for i in bytes.indices {
            var damaged = bytes
            damaged[i] ^= 0x10
            #expect(throws: StrataError.self) { try damaged.withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: 1, file: "test") } }
            #expect(Self.quickCheck(damaged, entity, key: 1) == nil)
            #expect(throws: StrataError.self) { try Self.check(damaged, entity, key: 1) }
        }
    }

    /// The fast check's walk over the tags and lengths is what refuses a record whose checksum is
    /// sound but whose shape is not (a writer's bug, or damage the checksum misses): every byte
    /// after the checksum replaced by tags, lengths and other bytes, with the checksum recomputed,
    /// must be refused by the fast check exactly when the full check refuses it, and accepted
    /// with the same to-one offset otherwise (a URL is the full check's alone).
    @Test func theFastCheckRefusesWhatTheFullCheckRefusesUnderASoundChecksum() throws {
        let entity = Self.sample
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .double(1.5), .string("hello"), .date(Date(timeIntervalSinceReferenceDate: 3)), .data(Data([9, 8])), .uuid(UUID()), .null], toOne: [2, nil, 4])
        let bytes = LMDBRecordCodec.encoded(record, entity, key: 1)
        var refused = 0, accepted = 0
        for i in 5..<bytes.count {
            for replacement: UInt8 in Array(0...10) + [0x7F, 0x80, 0x81, 0xFF] where replacement != bytes[i] {
                var damaged = bytes
                damaged[i] = replacement
                let sum = damaged[5...].withUnsafeBytes { LMDBRecordCodec.checksum($0, key: 1) }
                withUnsafeBytes(of: sum.littleEndian) { for j in 0..<4 { damaged[1 + j] = $0[j] } }
                let fast = Self.quickCheck(damaged, entity, key: 1)
                guard let links = try? Self.check(damaged, entity, key: 1) else {
                    #expect(fast == nil, "byte \(i) set to \(replacement): the full check refuses it, the fast one accepts it")
                    refused += 1
                    continue
                }
                accepted += 1
                let hasURL = damaged.withUnsafeBytes { !LMDBRecordCodec.checkedValue(at: 7, $0, entity).isNull }
                #expect(fast == (hasURL ? nil : links), "byte \(i) set to \(replacement)")
            }
        }
        #expect(refused > 0 && accepted > 0, "both outcomes exercised: \(refused) refused, \(accepted) accepted")
    }

    /// Issue 29: a record whose key was damaged (or that was copied under another key) read as that
    /// other record; the version-2 checksum covers the key. Version-1 records, without it, still read.
    @Test func aRecordUnderAnotherKeyIsCorruptAndVersion1StillReads() throws {
        let entity = Self.sample
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .double(1.5), .string("hello"), .null, .data(Data([9])), .null, .null], toOne: [2, nil, nil])
        let bytes = LMDBRecordCodec.encoded(record, entity, key: 7)
        #expect(bytes[0] == 2)
        #expect(try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: 7, file: "test") } == record)
        for other: Int64 in [6, 8, 7 ^ (1 << 40), -7] {
            let error = try #require(throws: StrataError.self) { try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: other, file: "test") } }
            #expect(error.code == .corruptStore && error.message.contains("another key"), "\(error)")
        }
        var version1 = bytes
        version1[0] = 1
        let sum = version1[5...].withUnsafeBytes { LMDBRecordCodec.checksum($0, key: nil) }
        withUnsafeBytes(of: sum.littleEndian) { for i in 0..<4 { version1[1 + i] = $0[i] } }
        #expect(try version1.withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: 7, file: "test") } == record)
        #expect(try version1.withUnsafeBytes { try LMDBRecordCodec.decode($0, entity, key: 8, file: "test") } == record, "version 1 has no key to check")
    }

    /// The checksum as docs/formats/lmdb.md defines it, written plainly (the tail composed byte by
    /// byte): the codec's faster one must give the same value at every length and offset, or
    /// every record stored before would read as damaged.
    static func referenceChecksum(_ bytes: UnsafeRawBufferPointer, key: Int64?) -> UInt32 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        if let key {
            h = (h ^ UInt64(bitPattern: key)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
        }
        var i = 0
        while i + 8 <= bytes.count {
            var word: UInt64 = 0
            for j in 0..<8 { word |= UInt64(bytes[i + j]) << (8 * UInt64(j)) }
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count { tail |= UInt64(bytes[i]) << shift; shift += 8; i += 1 }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    @Test func theChecksumMatchesItsDefinitionAtEveryLength() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let bytes = (0..<80).map { _ -> UInt8 in state = state &* 6_364_136_223_846_793_005 &+ 1; return UInt8(truncatingIfNeeded: state >> 56) }
        bytes.withUnsafeBytes { all in
            for start in 0..<8 {
                for count in 0...(all.count - start) {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
                    for key: Int64? in [nil, 7, -1] {
                        #expect(LMDBRecordCodec.checksum(slice, key: key) == Self.referenceChecksum(slice, key: key), "\(count) bytes at \(start), key \(String(describing: key))")
                    }
                }
            }
        }
        #expect(LMDBRecordCodec.checksum(UnsafeRawBufferPointer(start: nil, count: 0), key: 3) == Self.referenceChecksum(UnsafeRawBufferPointer(start: nil, count: 0), key: 3))
    }

    /// A save writes inserted records' keys into a buffer (`valueKey(_:_:into:)` with a raw
    /// buffer); they must be the bytes the array form gives — the form every other path files and
    /// looks up by — for every type, nil, NaN, −0, an empty and a cut string, and composite keys.
    @Test func keysWrittenInPlaceAreTheArrayFormsBytes() {
        let samples: [[Value]] = [
            [.bool(true), .int(.min), .double(-0.0), .string(""), .date(Date(timeIntervalSinceReferenceDate: -0.0)), .data(Data([0, 1])), .uuid(UUID()), .url(URL(string: "https://a.example/b")!)],
            [.bool(false), .int(.max), .double(.nan), .string("é\u{0}x"), .date(Date(timeIntervalSinceReferenceDate: .nan)), .data(Data()), .null, .null],
            [.null, .int(0), .double(-2.5), .string(String(repeating: "k", count: 700)), .date(Date(timeIntervalSinceReferenceDate: 12)), .null, .null, .null],
        ]
        let refSets: [[PropertyReference]] = (0..<8).map { [.attribute($0)] } + [[.attribute(1), .attribute(3)], [.attribute(3), .relationship(0)], [.relationship(0)]]
        withUnsafeTemporaryAllocation(byteCount: LMDBKeyCodec.maximumKeyLength, alignment: 8) { scratch in
            for attributes in samples {
                for toOne: [Int64?] in [[5, nil, nil], [nil, nil, nil]] {
                    let record = LMDBRecord(attributes: attributes, toOne: toOne)
                    for refs in refSets {
                        var expected: [UInt8] = []
                        let has = LMDBKeyCodec.valueKey(refs, record, into: &expected)
                        let length = LMDBKeyCodec.valueKey(refs, record, into: scratch)
                        #expect(length.map { Array(scratch[..<$0]) } == (has ? expected : nil), "\(refs) of \(attributes)")
                    }
                }
            }
        }
    }

    @Test func valueKeysSortAsTheValuesDo() {
        let values: [Value] = [
            .int(.min), .int(-1), .int(0), .int(1), .int(.max), .double(-.infinity), .double(-2.5), .double(-0.0), .double(0.0), .double(1e-300), .double(3),
            .string(""), .string("a"), .string("a\u{0}"), .string("ab"), .string("b"), .bool(false), .bool(true),
            .date(Date(timeIntervalSinceReferenceDate: -5)), .date(Date(timeIntervalSinceReferenceDate: 5)),
        ]
        for a in values {
            for b in values where a.type == b.type {
                let ka = LMDBKeyCodec.valueKey([a])!, kb = LMDBKeyCodec.valueKey([b])!
                let bytes = ka.lexicographicallyPrecedes(kb) ? -1 : (ka == kb ? 0 : 1)
                #expect(bytes == Value.sortOrder(a.uniqueKey, b.uniqueKey).signum(), "\(a) vs \(b)")
            }
        }
    }
}
