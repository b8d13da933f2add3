import Foundation
@_spi(StrataEngine) import Strata

/// Turns stored records into XML elements and text back into values, exactly.
///
/// A record is `<record id="KEY">` holding, in schema order, `<value name="ATTR">TEXT</value>` for
/// every attribute that is not nil, `<to-one name="REL">KEY</to-one>` for every set to-one and
/// `<to-many name="REL">KEY KEY …</to-many>` for every non-empty to-many (keys in order). A missing
/// element is nil or empty. Text by type: Bool `true`/`false`; Int decimal (Int64 exactly); Double
/// the shortest text that reads back to the same bits (`-0.0`, `5e-324`), `NaN`, `INF`, `-INF`
/// (XML Schema's spellings), `bits:HEX` for a NaN with a payload; Date the same for seconds since
/// 2001-01-01 UTC (what `Date` holds, so sub-second values are exact); String the text itself, or —
/// if it holds a character XML 1.0 cannot carry (NUL and the other C0 controls but tab, line feed and
/// carriage return; U+FFFE; U+FFFF) — `encoding="base64"` and the base64 of its UTF-8; Data base64;
/// UUID its string; URL its absolute string.
final class XMLRecordCodec: Sendable {
    let entity: EntitySchema
    /// `<value name="…">` for every attribute, escaped once.
    private let valueTags: [[UInt8]]
    /// `<to-one name="…">` or `<to-many name="…">` for every relationship, escaped once.
    private let linkTags: [[UInt8]]
    /// Property names as UTF-8, to find a property from the bytes the parser hands over.
    let attributeNames: [[UInt8]]
    let relationshipNames: [[UInt8]]
    /// A record with every attribute nil and every relationship empty, to start reading one from.
    let emptyAttributes: [Value]
    let emptyLinks: [Link]

    init(_ entity: EntitySchema) {
        self.entity = entity
        func tag(_ element: StaticString, _ name: String) -> [UInt8] {
            var w = XMLWriter()
            w.raw("<")
            w.raw(element)
            w.attribute("name", name)
            w.raw(">")
            return w.bytes
        }
        valueTags = entity.attributes.map { tag("value", $0.name) }
        linkTags = entity.relationships.map { tag($0.isToMany ? "to-many" : "to-one", $0.name) }
        attributeNames = entity.attributes.map { Array($0.name.utf8) }
        relationshipNames = entity.relationships.map { Array($0.name.utf8) }
        emptyAttributes = Array(repeating: .null, count: entity.attributes.count)
        emptyLinks = entity.relationships.map { $0.isToMany ? .many([]) : .one(nil) }
    }

    /// Appends `<record id="key">…</record>`.
    func write(_ key: Int64, _ record: StoredRecord, to w: inout XMLWriter) {
        w.raw("<record id=\"")
        w.int(key)
        w.raw("\">")
        for (i, value) in record.attributes.enumerated() where !value.isNull {
            if case .string(let s) = value, !XMLWriter.canCarry(s) {
                w.raw(valueTags[i].dropLast())
                w.raw(" encoding=\"base64\">")
                w.raw(Data(s.utf8).base64EncodedString())
            } else {
                w.raw(valueTags[i][...])
                Self.writeText(value, to: &w)
            }
            w.raw("</value>")
        }
        for (i, link) in record.links.enumerated() {
            switch link {
            case .one(nil): continue
            case .one(let k?):
                w.raw(linkTags[i][...])
                w.int(k)
                w.raw("</to-one>")
            case .many(let ks):
                guard !ks.isEmpty else { continue }
                w.raw(linkTags[i][...])
                for (n, k) in ks.enumerated() {
                    if n > 0 { w.raw(" ") }
                    w.int(k)
                }
                w.raw("</to-many>")
            }
        }
        w.raw("</record>")
    }

    /// Appends the text form of a non-nil value (strings XML can carry).
    static func writeText(_ value: Value, to w: inout XMLWriter) {
        switch value {
        case .null: break
        case .bool(let b): w.raw(b ? "true" : "false")
        case .int(let n): w.int(n)
        case .double(let d): w.raw(doubleText(d))
        case .date(let d): w.raw(doubleText(d.timeIntervalSinceReferenceDate))
        case .string(let s): w.text(s)
        case .data(let d): w.raw(d.base64EncodedString())
        case .uuid(let u): w.raw(u.uuidString)
        case .url(let u): w.text(u.absoluteString)
        }
    }

    static func doubleText(_ d: Double) -> String {
        if d.isFinite { return "\(d)" }
        if d == .infinity { return "INF" }
        if d == -.infinity { return "-INF" }
        if d.bitPattern == Double.nan.bitPattern { return "NaN" }
        return "bits:" + String(d.bitPattern, radix: 16)
    }

    static func readDouble(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "INF": return .infinity
        case "-INF": return -.infinity
        default:
            if text.hasPrefix("bits:") { return UInt64(text.dropFirst(5), radix: 16).map(Double.init(bitPattern:)) }
            // Only what `doubleText` writes: digits, sign, point, exponent (Swift also reads "nan", "inf", hex).
            guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }) else { return nil }
            return Double(text)
        }
    }

    /// The value of `type` that `text` spells, or `nil` if it does not fit.
    static func read(_ text: XMLBytes, _ type: AttributeType, base64: Bool) -> Value? {
        if base64 {
            guard type == .string, let data = Data(base64Encoded: Data(text)), let s = String(validating: data, as: UTF8.self) else { return nil }
            return .string(s)
        }
        switch type {
        case .bool:
            if text.spells("true") { return .bool(true) }
            if text.spells("false") { return .bool(false) }
            return nil
        case .int: return readInt(text).map(Value.int)
        case .double: return readDouble(text).map(Value.double)
        case .date: return readDouble(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .string: return .string(text.string)
        case .data: return Data(base64Encoded: Data(text)).map(Value.data)
        case .uuid: return UUID(uuidString: text.string).map(Value.uuid)
        case .url: return URL(string: text.string).map(Value.url)
        }
    }

    /// A decimal Int64 (optional leading `-`), exactly; `nil` for anything else or an overflow.
    static func readInt<Digits: RandomAccessCollection>(_ text: Digits) -> Int64? where Digits.Element == UInt8, Digits.Index == Int {
        var i = text.startIndex
        let negative = i < text.endIndex && text[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < text.endIndex, text.endIndex - i <= 19 else { return nil }
        var n: Int64 = 0
        while i < text.endIndex {
            let d = text[i] &- 0x30
            guard d < 10 else { return nil }
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            n = s
            i += 1
        }
        return n
    }

    /// Space-separated decimal keys, read in place (no slices, no array of parts).
    static func readKeys(_ text: XMLBytes) -> [Int64]? {
        var keys: [Int64] = []
        let n = text.count
        var separators = 0
        for b in text where b == 0x20 { separators += 1 }
        keys.reserveCapacity(separators + 1)
        var i = 0
        while i < n {
            let b = text[i]
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D { i += 1; continue }
            var end = i + 1
            while end < n, text[end] != 0x20, text[end] != 0x0A, text[end] != 0x09, text[end] != 0x0D { end += 1 }
            guard let k = readInt(UnsafeBufferPointer(rebasing: text[i..<end])) else { return nil }
            keys.append(k)
            i = end
        }
        return keys
    }

    /// The index of the attribute whose name is `bytes`, trying `expected` first (files list them in order).
    func attributeIndex(_ bytes: XMLBytes, expected: Int) -> Int? {
        if expected < attributeNames.count, Self.same(attributeNames[expected], bytes) { return expected }
        return attributeNames.firstIndex { Self.same($0, bytes) }
    }

    private static func same(_ name: [UInt8], _ bytes: XMLBytes) -> Bool {
        name.count == bytes.count && (bytes.isEmpty || name.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
    }

    /// The index of the relationship whose name is `bytes`, trying `expected` first.
    func relationshipIndex(_ bytes: XMLBytes, expected: Int) -> Int? {
        if expected < relationshipNames.count, Self.same(relationshipNames[expected], bytes) { return expected }
        return relationshipNames.firstIndex { Self.same($0, bytes) }
    }
}
