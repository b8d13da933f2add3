import Foundation

/// A parsed JSON value, with integers kept apart from doubles so Int64 extremes stay exact.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x.bitPattern == y.bitPattern
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object.
    subscript(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}

/// A JSON syntax error at a byte offset.
struct JSONSyntaxError: Error {
    let offset: Int
    let reason: String
}

/// A small, strict JSON parser over UTF-8 bytes that reports the byte offset of the first error, so a
/// torn or edited store file is reported where it breaks (Foundation's parsers do not say where).
struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    /// The deepest nesting a store file needs is 6 (document, entities, entity, records, record, list);
    /// deeper input is refused rather than recursed into, so a hostile file cannot overflow the stack.
    static let maximumDepth = 32

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one document; anything but whitespace after it is an error.
    static func parse(_ data: Data) throws -> JSONValue { try parse([UInt8](data)) }

    /// Parses one document from bytes.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.value()
        parser.skip()
        guard parser.i == parser.bytes.count else { throw JSONSyntaxError(offset: parser.i, reason: "unexpected data after the document") }
        return value
    }

    private mutating func skip() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private func fail(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: i, reason: i >= bytes.count ? "the data ends early (\(reason))" : reason)
    }

    private mutating func value() throws -> JSONValue {
        skip()
        guard i < bytes.count else { throw fail("expected a value") }
        if bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") {
            guard depth < Self.maximumDepth else { throw fail("arrays and objects nested deeper than \(Self.maximumDepth) levels") }
            depth += 1
        }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, JSONValue)] = []
            skip()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
            while true {
                skip()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let key = try string()
                skip()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                members.append((key, try value()))
                skip()
                guard i < bytes.count else { throw fail("expected ',' or '}'") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skip()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
            while true {
                items.append(try value())
                skip()
                guard i < bytes.count else { throw fail("expected ',' or ']'") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return try number()
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw fail("expected \(word)") }
        i += w.count
    }

    private mutating func number() throws -> JSONValue {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        var isInteger = true
        guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw fail("expected a value") }
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw fail("expected a digit") }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw fail("expected a digit") }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger, let n = Int64(text) { return .int(n) }
        guard let d = Double(text) else { throw JSONSyntaxError(offset: start, reason: "unreadable number \(text)") }
        return .double(d)
    }

    private mutating func string() throws -> String {
        i += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw fail("a control character inside a string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[i]
            i += 1
            if let decoded = JSONEscape.simple(e) {
                out.append(decoded)
                continue
            }
            guard e == UInt8(ascii: "u") else { throw fail("an invalid escape") }
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw fail("a lone surrogate") }
                i += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let u = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
            out.append(contentsOf: Array(String(Character(u)).utf8))
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        guard let v = JSONEscape.hex4(bytes, at: i) else { throw fail("an invalid \\u escape") }
        i += 4
        return v
    }
}

/// Writes JSON text, escaping every string so any Unicode (NUL included) survives.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = String(b, radix: 16)
                bytes.append(contentsOf: Array("\\u00".utf8) + Array((hex.count == 1 ? "0" + hex : hex).utf8))
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ n: Int64) { raw(String(n)) }
}
