import Foundation

/// Numbers read straight from the bytes libxml2 hands over: no `String`, no copy.
extension XMLRecordCodec {
    /// A double from the bytes `doubleText` wrote.
    ///
    /// Most stored doubles (prices, dates in seconds) have at most 15 significant digits and a
    /// small exponent: those are read exactly with one multiplication or division by a power of
    /// ten (Clinger's fast path — both operands are exact doubles, so IEEE rounding of the one
    /// operation gives the correctly rounded result `strtod` gives). Everything else goes to `strtod`.
    static func readDouble(_ bytes: XMLBytes) -> Double? {
        if let d = fastDouble(bytes) { return d }
        let plain = !bytes.isEmpty && bytes.count < 64
            && bytes.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }
        guard plain else { return readDouble(String(decoding: bytes, as: UTF8.self)) }
        // strtod reads what Swift's `description` writes, correctly rounded; the copy ends with NUL.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + bytes.count ? value : nil
        }
    }

    /// Exact powers of ten a double holds (10^22 is the largest).
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// `-?D+(.D*)?([eE][+-]?D+)?` with at most 15 significant digits... read exactly, or `nil` to
    /// let `strtod` decide (any other shape, more digits, a larger exponent).
    private static func fastDouble(_ bytes: XMLBytes) -> Double? {
        var i = 0
        let n = bytes.count
        let negative = n > 0 && bytes[0] == 0x2D
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while i < n, bytes[i] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
            digits += mantissa == 0 ? 0 : 1
            sawDigit = true
            i += 1
        }
        if i < n, bytes[i] == 0x2E {
            i += 1
            while i < n, bytes[i] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
                digits += mantissa == 0 ? 0 : 1
                exponent -= 1
                sawDigit = true
                i += 1
            }
        }
        guard sawDigit, digits <= 15 else { return nil }
        if i < n, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            var negativeExponent = false
            if i < n, bytes[i] == 0x2D || bytes[i] == 0x2B { negativeExponent = bytes[i] == 0x2D; i += 1 }
            var e = 0
            var sawExponentDigit = false
            while i < n, bytes[i] &- 0x30 < 10, e < 1000 {
                e = e * 10 + Int(bytes[i] &- 0x30)
                sawExponentDigit = true
                i += 1
            }
            guard sawExponentDigit else { return nil }
            exponent += negativeExponent ? -e : e
        }
        guard i == n, exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
    }
}
