import StrataFileSupport
import Testing

/// The checksum is FNV-1a 64 exactly, whatever the length and alignment of the bytes: every file
/// written before the eight-bytes-at-a-time loop must still open.
struct ChecksumTests {
    /// Byte by byte, as the algorithm is defined.
    static func reference(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    @Test func publishedVectors() {
        #expect(Checksum.hex([]) == "cbf29ce484222325")
        #expect(Checksum.hex(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(Checksum.hex(Array("foobar".utf8)) == "85944171f73967e8")
    }

    @Test func everyLengthAndOffsetMatchesTheDefinition() {
        var state: UInt64 = 7
        let bytes: [UInt8] = (0..<200).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for start in 0..<9 {
            for end in start...bytes.count {
                #expect(Checksum.value(bytes[start..<end]) == Self.reference(bytes[start..<end]))
            }
        }
    }
}
