import Foundation

/// Writes Strata's XML as it goes, into a byte buffer: a streaming writer like `xmlTextWriter`, but
/// with the escaping this format needs and nothing else.
///
/// Text is escaped so that it reads back exactly: `&`, `<` and `>` as entities, a carriage return
/// as `&#13;` (a parser turns a literal one into a line feed), and — in `singleLine` mode, for
/// journal entries that must fit one line — a line feed as `&#10;`. Attribute values also escape
/// `"`, tab and line feed (a parser turns literal ones into spaces). Characters XML 1.0 cannot carry
/// at all are the caller's business (`XMLValueCodec` writes such strings as base64).
struct XMLWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether a line feed in text is written as `&#10;`, so an entry stays on one line.
    let singleLine: Bool

    init(singleLine: Bool = false, capacity: Int = 0) {
        self.singleLine = singleLine
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup as it is.
    mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Appends markup or digits that need no escaping.
    mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// Appends bytes that are already markup.
    mutating func raw(_ markup: ArraySlice<UInt8>) { bytes.append(contentsOf: markup) }

    /// Appends a decimal integer.
    mutating func int(_ n: Int64) { bytes.append(contentsOf: String(n).utf8) }

    /// Appends `s` as element content.
    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { text($0) }
    }

    /// Appends UTF-8 bytes as element content.
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        for b in utf8 {
            switch b {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case 0x0D: raw("&#13;")
            case 0x0A where singleLine: raw("&#10;")
            default: bytes.append(b)
            }
        }
    }

    /// Appends ` name="value"`, escaped.
    mutating func attribute(_ name: StaticString, _ value: String) {
        bytes.append(0x20)
        raw(name)
        raw("=\"")
        for b in value.utf8 {
            switch b {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case 0x09: raw("&#9;")
            case 0x0A: raw("&#10;")
            case 0x0D: raw("&#13;")
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends ` name="n"`.
    mutating func attribute(_ name: StaticString, _ n: Int64) {
        bytes.append(0x20)
        raw(name)
        raw("=\"")
        int(n)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether every character of `utf8` can appear in an XML 1.0 document (as itself or as a
    /// character reference): not the C0 controls other than tab, line feed and carriage return, and
    /// not U+FFFE or U+FFFF. (Swift strings never hold lone surrogates.)
    static func canCarry(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = utf8.count
        while i < n {
            let b = utf8[i]
            if b < 0x20, b != 0x09, b != 0x0A, b != 0x0D { return false }
            if b == 0xEF, i + 2 < n, utf8[i + 1] == 0xBF, utf8[i + 2] >= 0xBE { return false }
            i += 1
        }
        return true
    }

    /// Whether every character of `s` can appear in an XML 1.0 document.
    static func canCarry(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { canCarry($0) }
    }
}
