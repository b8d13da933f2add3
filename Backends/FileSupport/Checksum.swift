/// The checksum every Strata file backend writes beside what it commits: FNV-1a, 64 bits.
///
/// Not a defence against tampering, only against damage: every step of FNV-1a is a bijection of the
/// running value, so any change of a single byte (a flipped bit, a torn or stale byte) always
/// changes the result, and several changes go unnoticed with a chance of 2⁻⁶⁴. It is fast enough to
/// cover every byte of a store at open (about 1 ns per byte here).
public enum Checksum {
    /// The FNV-1a value of `bytes`. Concrete, not generic: a generic loop called from another
    /// module runs unspecialized, several times slower over a whole store. (Reading eight bytes
    /// at a time and shifting them out measured slower than this plain loop, which the optimizer
    /// unrolls; limit: Benchmarks/Thresholds/json-reopen.txt.)
    public static func value(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// The FNV-1a value of an array's bytes.
    public static func value(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { value($0) } }

    /// The FNV-1a value of a slice's bytes.
    public static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.withUnsafeBytes { value($0) } }

    /// The value as 16 lowercase hex digits, the form written in files.
    public static func hex(_ value: UInt64) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The checksum of an array's bytes as 16 hex digits.
    public static func hex(_ bytes: [UInt8]) -> String { hex(value(bytes)) }

    /// The checksum of a slice's bytes as 16 hex digits.
    public static func hex(_ bytes: ArraySlice<UInt8>) -> String { hex(value(bytes)) }

    /// Whether `text` is exactly 16 lowercase hex digits.
    public static func isHex(_ text: some Collection<UInt8>) -> Bool {
        text.count == 16 && text.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
