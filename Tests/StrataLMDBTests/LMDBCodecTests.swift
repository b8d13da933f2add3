import CStrataChecksum
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
    static let sampleShape = LMDBRecordShape(sample)

    /// `record` stored under `key` as record `version`: 4 as a save writes it now, 1 to 3 as an
    /// earlier Strata wrote it.
    static func bytes(_ record: LMDBRecord, version: UInt8, key: Int64) -> [UInt8] {
        version == 4 ? LMDBRecordCodec.encoded(record, sampleShape, key: key) : asVersion(version, LMDBRecordCodec.encodedVersion3(record, sample, key: key), key: key)
    }

    @Test func theKeyTagsFollowTheTypeOrder() {
        for (i, type) in AttributeType.allCases.enumerated() { #expect(LMDBKeyCodec.tag(type) == UInt8(i + 1)) }
    }

    @Test(arguments: [UInt8(3), 4]) func everyValueTypeRoundTrips(version: UInt8) throws {
        let entity = Self.sample, shape = Self.sampleShape
        let records = [
            LMDBRecord(attributes: [.bool(true), .int(-7), .double(-0.0), .string("é\u{0}" + String(repeating: "x", count: 200)), .date(Date(timeIntervalSinceReferenceDate: 12.5)),
                                    .data(Data([0, 1, 2, 255])), .uuid(UUID()), .url(URL(string: "https://example.com/a?b=c")!)], toOne: [3, nil, Int64.max]),
            LMDBRecord(attributes: Array(repeating: .null, count: 8), toOne: [nil, nil, nil]),
            LMDBRecord(attributes: [.bool(false), .int(.min), .double(.nan), .string(""), .date(Date(timeIntervalSinceReferenceDate: -1e9)), .data(Data()), .null, .null], toOne: [nil, nil, 1]),
        ]
        for record in records {
            let bytes = Self.bytes(record, version: version, key: 1)
            #expect(bytes.count == (version == 4 ? LMDBRecordCodec.encodedSize(record, shape) : LMDBRecordCodec.encodedSizeVersion3(record, entity)))
            #expect(bytes[0] == version)
            let decoded = try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 1, file: "test") }
            #expect(decoded.toOne == record.toOne)
            Self.expectSame(decoded.attributes, record.attributes)
            // What a fetch does instead (`LMDBSnapshot`): check the bytes, decode values on access.
            let links = try Self.check(bytes, entity, key: 1)
            #expect(Self.quickCheck(bytes, entity, key: 1) == (record.attributes[7].isNull ? links : nil), "only a URL sends a sound record to the full check")
            Self.expectSame(bytes.withUnsafeBytes { LMDBRecordCodec.checkedValues($0, shape) }, record.attributes)
            Self.expectSame(bytes.withUnsafeBytes { b in entity.attributes.indices.map { LMDBRecordCodec.checkedValue(at: $0, b, shape) } }, record.attributes)
            var toOne: [Int64?] = Array(repeating: nil, count: entity.relationships.count)
            bytes.withUnsafeBytes { LMDBRecordCodec.checkedToOne($0, shape, links: links) { toOne[$0] = $1 } }
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
        let shape = LMDBRecordShape(entity)
        return bytes.withUnsafeBytes { LMDBRecordCodec.quickCheck($0, key: key, shape: shape) }
    }

    /// The fetch's full check, which names the damage.
    static func check(_ bytes: [UInt8], _ entity: EntitySchema, key: Int64) throws -> Int {
        try bytes.withUnsafeBytes { try LMDBRecordCodec.check($0, LMDBRecordShape(entity), key: key, file: "test") }
    }

    /// `bytes`, a record stored under `key`, with record `version`'s byte and checksum: from
    /// version-3 bytes, the bytes an earlier Strata wrote as version 1, 2 or 3 (the layout after
    /// the checksum is the same in those); from version-4 bytes, the checksum made sound again.
    static func asVersion(_ version: UInt8, _ bytes: [UInt8], key: Int64) -> [UInt8] {
        var out = bytes
        out[0] = version
        let sum = out[5...].withUnsafeBytes { LMDBRecordCodec.checksum(version: version, $0, key: key)! }
        withUnsafeBytes(of: sum.littleEndian) { for i in 0..<4 { out[1 + i] = $0[i] } }
        return out
    }

    /// Record versions 2 (written before CRC32C), 3 (written before fixed offsets) and 4 (written
    /// now): all read, all checked.
    @Test(arguments: [UInt8(2), 3, 4]) func everyCutOrFlippedByteIsCorruptNotACrash(version: UInt8) throws {
        let entity = Self.sample, shape = Self.sampleShape
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .double(1.5), .string("hello"), .null, .data(Data([9])), .null, .null], toOne: [2, nil, nil])
        let bytes = Self.bytes(record, version: version, key: 1)
        #expect(try bytes.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 1, file: "test") } == record)
        for length in 0..<bytes.count {
            #expect(throws: StrataError.self) { try Array(bytes[..<length]).withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 1, file: "test") } }
            #expect(Self.quickCheck(Array(bytes[..<length]), entity, key: 1) == nil)
            #expect(throws: StrataError.self) { try Self.check(Array(bytes[..<length]), entity, key: 1) }
        }
        #expect(Self.quickCheck(bytes, entity, key: 1) != nil)
        for i in bytes.indices {
            var damaged = bytes
            damaged[i] ^= 0x10
            #expect(throws: StrataError.self) { try damaged.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 1, file: "test") } }
            #expect(Self.quickCheck(damaged, entity, key: 1) == nil)
            #expect(throws: StrataError.self) { try Self.check(damaged, entity, key: 1) }
        }
    }

    /// The fast check's walk over the tags and lengths (versions 2 and 3), or its check of the
    /// shape (version 4: presence bits, bools, the ends table), is what refuses a record whose
    /// checksum is sound but whose shape is not (a writer's bug, or damage the checksum misses):
    /// every byte after the checksum replaced by tags, lengths and other bytes, with the checksum
    /// recomputed, must be refused by the fast check exactly when the full check refuses it, and
    /// accepted with the same to-one offset otherwise (a URL is the full check's alone).
    @Test(arguments: [UInt8(2), 3, 4]) func theFastCheckRefusesWhatTheFullCheckRefusesUnderASoundChecksum(version: UInt8) throws {
        let entity = Self.sample, shape = Self.sampleShape
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .double(1.5), .string("hello"), .date(Date(timeIntervalSinceReferenceDate: 3)), .data(Data([9, 8])), .uuid(UUID()), .null], toOne: [2, nil, 4])
        let bytes = Self.bytes(record, version: version, key: 1)
        var refused = 0, accepted = 0
        for i in 5..<bytes.count {
            for replacement: UInt8 in Array(0...10) + [0x7F, 0x80, 0x81, 0xFF] where replacement != bytes[i] {
                var damaged = bytes
                damaged[i] = replacement
                damaged = Self.asVersion(version, damaged, key: 1)
                let fast = Self.quickCheck(damaged, entity, key: 1)
                guard let links = try? Self.check(damaged, entity, key: 1) else {
                    #expect(fast == nil, "byte \(i) set to \(replacement): the full check refuses it, the fast one accepts it")
                    refused += 1
                    continue
                }
                accepted += 1
                let hasURL = damaged.withUnsafeBytes { !LMDBRecordCodec.checkedValue(at: 7, $0, shape).isNull }
                #expect(fast == (hasURL ? nil : links), "byte \(i) set to \(replacement)")
            }
        }
        #expect(refused > 0 && accepted > 0, "both outcomes exercised: \(refused) refused, \(accepted) accepted")
    }

    /// Issue 29: a record whose key was damaged (or that was copied under another key) read as that
    /// other record; the checksums of versions 2 to 4 cover the key. Version-1 records, without it,
    /// still read, and so do versions 2 and 3; an unknown version is damage.
    @Test func aRecordUnderAnotherKeyIsCorruptAndVersions1To3StillRead() throws {
        let entity = Self.sample, shape = Self.sampleShape
        let record = LMDBRecord(attributes: [.bool(true), .int(5), .double(1.5), .string("hello"), .null, .data(Data([9])), .null, .null], toOne: [2, nil, nil])
        let bytes = LMDBRecordCodec.encoded(record, shape, key: 7)
        #expect(bytes[0] == 4, "a save writes version 4")
        let stored = UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 1, as: UInt32.self) })
        #expect(stored == Self.referenceCRC32C(withUnsafeBytes(of: Int64(7).littleEndian, Array.init) + bytes[5...]), "CRC32C of the key, little-endian, and the bytes after the checksum")
        let version3 = Self.bytes(record, version: 3, key: 7)
        for version: UInt8 in [4, 3, 2] {
            let written = version == 4 ? bytes : Self.asVersion(version, version3, key: 7)
            #expect(try written.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 7, file: "test") } == record)
            #expect(Self.quickCheck(written, entity, key: 7) != nil, "version \(version) takes the fast check")
            for other: Int64 in [6, 8, 7 ^ (1 << 40), -7] {
                let error = try #require(throws: StrataError.self) { try written.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: other, file: "test") } }
                #expect(error.code == .corruptStore && error.message.contains("another key"), "\(error)")
                #expect(Self.quickCheck(written, entity, key: other) == nil)
            }
        }
        #expect(Self.asVersion(2, version3, key: 7) != version3, "the two versions' checksums differ")
        let version1 = Self.asVersion(1, version3, key: 7)
        #expect(try version1.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 7, file: "test") } == record)
        #expect(try version1.withUnsafeBytes { try LMDBRecordCodec.decode($0, shape, key: 8, file: "test") } == record, "version 1 has no key to check")
        for unknown: UInt8 in [0, 5, 0xFF] {
            var other = bytes
            other[0] = unknown
            let error = try #require(throws: StrataError.self) { try Self.check(other, entity, key: 7) }
            #expect(error.code == .corruptStore && error.message.contains("record format"), "\(error)")
            #expect(Self.quickCheck(other, entity, key: 7) == nil)
        }
    }

    /// CRC32C as its definition says, a bit at a time (reflected polynomial 0x82F63B78, initial
    /// value and final xor all ones): an oracle independent of both the table and the instruction.
    static func referenceCRC32C(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    /// The version-3 checksum against the bitwise definition, at every length and alignment, with
    /// the CPU's instruction (when the machine has it) and the portable table alike, and the
    /// standard check value of CRC32C ("123456789" → 0xE3069283).
    @Test func theCRC32CMatchesItsDefinitionAtEveryLength() {
        #expect(Self.referenceCRC32C(Array("123456789".utf8)) == 0xE306_9283)
        #expect(strata_crc32c(0, "123456789", 9) == 0xE306_9283)
        #expect(strata_crc32c_portable(0, "123456789", 9) == 0xE306_9283)
        Self.forEverySlice(of: 160, seed: 0x9E37_79B9_7F4A_7C15) { slice, start, count in
            let expected = Self.referenceCRC32C(slice)
            #expect(strata_crc32c(0, slice.baseAddress, count) == expected, "\(count) bytes at \(start)")
            #expect(strata_crc32c_portable(0, slice.baseAddress, count) == expected, "\(count) bytes at \(start), table")
            for key: Int64 in [0, 7, -1, 0x0102_0304_0506_0708] {
                let keyed = Self.referenceCRC32C(withUnsafeBytes(of: key.littleEndian, Array.init) + Array(slice))
                #expect(LMDBRecordCodec.crc32c(slice, key: key) == keyed, "\(count) bytes at \(start), key \(key)")
                #expect(strata_crc32c_keyed_portable(UInt64(bitPattern: key), slice.baseAddress, count) == keyed, "\(count) bytes at \(start), key \(key), table")
            }
        }
        #expect(LMDBRecordCodec.crc32c(UnsafeRawBufferPointer(start: nil, count: 0), key: 3) == Self.referenceCRC32C(withUnsafeBytes(of: Int64(3).littleEndian, Array.init)))
        #if arch(x86_64)
        // The machines this runs on have SSE4.2; the instruction's path is the one measured.
        #expect(strata_crc32c_uses_instruction() == 1)
        #endif
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

    /// Runs `body` on every slice of `length` pseudo-random bytes (from `seed`) that starts at
    /// offsets 0 to 7, at every length: each alignment, each tail.
    static func forEverySlice(of length: Int, seed: UInt64, _ body: (UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Void) {
        var state = seed
        let bytes = (0..<length).map { _ -> UInt8 in state = state &* 6_364_136_223_846_793_005 &+ 1; return UInt8(truncatingIfNeeded: state >> 56) }
        bytes.withUnsafeBytes { all in
            for start in 0..<8 {
                for count in 0...(all.count - start) { body(UnsafeRawBufferPointer(rebasing: all[start..<(start + count)]), start, count) }
            }
        }
    }

    @Test func theChecksumMatchesItsDefinitionAtEveryLength() {
        Self.forEverySlice(of: 80, seed: 0x2545_F491_4F6C_DD1D) { slice, start, count in
            for key: Int64? in [nil, 7, -1] {
                #expect(LMDBRecordCodec.checksum(slice, key: key) == Self.referenceChecksum(slice, key: key), "\(count) bytes at \(start), key \(String(describing: key))")
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
