/// JSON's string escapes, decoded in one place so the streaming reader (`JSONDocumentReader`) and the
/// tree parser (`JSONParser`) can never disagree on what a stored string says.
enum JSONEscape {
    /// The byte a one-letter escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`); nil for
    /// `u` (four hex digits follow, see `hex4`) and for any letter JSON does not define.
    static func simple(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return letter
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    /// The value of the four hexadecimal digits at `offset` (the `XXXX` of `\uXXXX`), or nil when the
    /// input ends first or any of the four is not a hex digit — strictly four digits, no sign.
    static func hex4<Bytes: RandomAccessCollection>(_ bytes: Bytes, at offset: Int) -> UInt32?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard offset >= bytes.startIndex, offset + 4 <= bytes.endIndex else { return nil }
        var value: UInt32 = 0
        for k in offset..<(offset + 4) {
            let b = bytes[k]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }
}
