import Foundation
@_spi(StrataEngine) import Strata

/// How an attribute value is written in a CSV field, and read back exactly.
///
/// `nil` is an empty unquoted field. Strings are always quoted (so `""` is the empty string) with
/// `\` written `\\` and NUL written `\0`, which keeps files readable by tools that refuse NUL
/// (Python's `csv`). Bool `true`/`false`; Int decimal; Double the shortest text that reads back to the
/// same bits (`-0.0` included) or `NaN`, `Infinity`, `-Infinity` (`bits:<hex>` for a NaN with a
/// payload); Date seconds since 2001-01-01 UTC written like a Double; Data base64, quoted (so empty
/// data is `""`, not `nil`); UUID its string; URL its absolute string, quoted.
enum CSVFieldCodec {
    static func encode(_ value: Value) -> CSVField? {
        switch value {
        case .null: return nil
        case .bool(let b): return CSVField(text: b ? "true" : "false", quoted: false)
        case .int(let n): return CSVField(text: String(n), quoted: false)
        case .double(let d): return CSVField(text: double(d), quoted: false)
        case .date(let d): return CSVField(text: double(d.timeIntervalSinceReferenceDate), quoted: false)
        case .string(let s): return CSVField(text: escape(s), quoted: true)
        case .data(let d): return CSVField(text: d.base64EncodedString(), quoted: true)
        case .uuid(let u): return CSVField(text: u.uuidString, quoted: false)
        case .url(let u): return CSVField(text: u.absoluteString, quoted: true)
        }
    }

    static func double(_ d: Double) -> String {
        if d.isFinite { return "\(d)" }
        if d == .infinity { return "Infinity" }
        if d == -.infinity { return "-Infinity" }
        return d.bitPattern == Double.nan.bitPattern ? "NaN" : "bits:" + String(d.bitPattern, radix: 16)
    }

    static func readDouble(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default:
            if text.hasPrefix("bits:") { return UInt64(text.dropFirst(5), radix: 16).map(Double.init(bitPattern:)) }
            guard let first = text.utf8.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else { return nil }
            return Double(text)
        }
    }

    static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "\\") }) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\u{0}": out += "\\0"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape(_ s: String) -> String? {
        guard s.utf8.contains(UInt8(ascii: "\\")) else { return s }
        var out = ""
        var iterator = s.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else { out.unicodeScalars.append(scalar); continue }
            switch iterator.next() {
            case "\\": out += "\\"
            case "0": out += "\u{0}"
            default: return nil
            }
        }
        return out
    }

    /// The value of a field for an attribute of `type`, or `nil` if the text does not parse.
    static func decode(_ field: CSVField, _ type: AttributeType) -> Value? {
        if field.text.isEmpty && !field.quoted { return .null }
        switch type {
        case .bool: return field.text == "true" ? .bool(true) : field.text == "false" ? .bool(false) : nil
        case .int: return Int64(field.text).map(Value.int)
        case .double: return readDouble(field.text).map(Value.double)
        case .date: return readDouble(field.text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .string: return field.quoted ? unescape(field.text).map(Value.string) : nil
        case .data: return Data(base64Encoded: field.text).map(Value.data)
        case .uuid: return UUID(uuidString: field.text).map(Value.uuid)
        case .url: return URL(string: field.text).map(Value.url)
        }
    }
}
