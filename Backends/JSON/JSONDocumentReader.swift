import Foundation
@_spi(StrataEngine) import Strata

/// Reads a sealed document straight into a `StoreState`, without a JSON value tree.
///
/// Opening through `JSONParser` built a generic tree of the whole document (56% of reopen at 100,000
/// records) and converted every record through a `[String: JSONValue]` (36%). This reader walks the
/// bytes once, expecting exactly the layout `JSONDocumentFile.encode` writes — members in that
/// order, records as `{"@id":…, attributes in schema order, relationships in schema order}` —
/// matching names as bytes and decoding strings and numbers in place.
///
/// It is a fast path only: it returns `nil` at the first byte that differs from that layout (a hand
/// edit with its checksum recomputed, another member order, an escape it does not decode, any
/// damage), and the caller then reads the document with `JSONParser`, which accepts every valid
/// document and produces every error message. So what opens, and how a bad file is reported, do not
/// depend on this reader; it must only build the same state for the documents it accepts.
struct JSONDocumentReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The state, version and journal sequence of `content` (a document of version 2 or later
    /// without its seal, the seal already checked), or `nil` if it is not laid out exactly as this
    /// version writes it.
    static func read(_ content: ArraySlice<UInt8>, schema: Schema) -> (StoreState, version: Int64, journalSequence: Int64)? {
        content.withUnsafeBufferPointer { buffer in
            var reader = JSONDocumentReader(buffer)
            return reader.document(schema)
        }
    }

    private mutating func document(_ schema: Schema) -> (StoreState, version: Int64, journalSequence: Int64)? {
        guard expect("{"), member("format"), expect("\"\(JSONDocumentFile.format)\""), expect(","),
            member("version"), let version = integer(), (2...JSONDocumentFile.version).contains(version), expect(","),
            member("schemaFingerprint"), string() == schema.fingerprint, expect(","),
            member("schema"), skipStrings(), expect(","),
            member("schemaRecord"), skipLine(),
            member("storeIdentifier"), let identifier = string(), expect(","),
            member("journalSequence"), let sequence = integer(), sequence >= 0, expect(","),
            member("entities"), expect("{")
        else { return nil }
        var state = StoreState(schema: schema, storeIdentifier: identifier)
        for (n, entity) in schema.entities.enumerated() {
            guard n == 0 || expect(","), member(entity.name), expect("{"), member("nextKey"), let next = integer(), expect(","),
                member("records"), expect("[")
            else { return nil }
            if !peek("]") {
                repeat {
                    guard let (key, record) = self.record(entity), (try? state.load(entity, key: key, record: record)) != nil else { return nil }
                } while expect(",")
            }
            guard expect("]"), expect("}") else { return nil }
            state.setNextPrimaryKey(entity, atLeast: next)
        }
        guard expect("}"), expect(",") else { return nil }
        skipSpace()
        return i == bytes.count ? (state, version, sequence) : nil
    }

    private mutating func record(_ entity: EntitySchema) -> (Int64, StoredRecord)? {
        guard expect("{"), member("@id"), let key = integer() else { return nil }
        var attributes: [Value] = []
        attributes.reserveCapacity(entity.attributes.count)
        // By index, reading the two fields: a loop over the elements copies each whole `Attribute`
        // per record (its name, default, originalName and hashModifier retained and released).
        for i in entity.attributes.indices {
            guard expect(","), member(entity.attributes[i].name), let value = value(entity.attributes[i].type) else { return nil }
            attributes.append(value)
        }
        var links: [Link] = []
        links.reserveCapacity(entity.relationships.count)
        for relationship in entity.relationships {
            guard expect(","), member(relationship.name) else { return nil }
            if relationship.isToMany {
                guard expect("[") else { return nil }
                var keys: [Int64] = []
                if !peek("]") {
                    repeat {
                        guard let k = integer() else { return nil }
                        keys.append(k)
                    } while expect(",")
                }
                guard expect("]") else { return nil }
                links.append(.many(keys))
            } else if literal("null") {
                links.append(.one(nil))
            } else {
                guard let k = integer() else { return nil }
                links.append(.one(k))
            }
        }
        guard expect("}") else { return nil }
        return (key, StoredRecord(attributes: attributes, links: links))
    }

    /// A value of `type` as `JSONRecordCodec.write` writes it (and `readValue` reads it).
    private mutating func value(_ type: AttributeType) -> Value? {
        skipSpace()
        if literal("null") { return .null }
        switch type {
        case .bool:
            if literal("true") { return .bool(true) }
            return literal("false") ? .bool(false) : nil
        case .int: return integer().map(Value.int)
        case .double: return double().map(Value.double)
        case .date: return double().map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .string: return string().map(Value.string)
        case .data: return string().flatMap { Data(base64Encoded: $0) }.map(Value.data)
        case .uuid: return string().flatMap { UUID(uuidString: $0) }.map(Value.uuid)
        case .url: return string().flatMap { URL(string: $0) }.map(Value.url)
        }
    }

    // MARK: - Bytes

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func peek(_ text: StaticString) -> Bool {
        skipSpace()
        return i < bytes.count && bytes[i] == text.utf8Start.pointee
    }

    /// Consumes `text` (after whitespace) if it is next.
    private mutating func expect(_ text: StaticString) -> Bool {
        skipSpace()
        let count = text.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        for k in 0..<count where bytes[i + k] != text.utf8Start[k] { return false }
        i += count
        return true
    }

    private mutating func expect(_ text: String) -> Bool {
        skipSpace()
        var j = i
        for b in text.utf8 {
            guard j < bytes.count, bytes[j] == b else { return false }
            j += 1
        }
        i = j
        return true
    }

    /// Consumes a literal that must not run on into a longer word.
    private mutating func literal(_ word: StaticString) -> Bool {
        let start = i
        guard expect(word) else { return false }
        if i < bytes.count, bytes[i] >= 0x61, bytes[i] <= 0x7A {
            i = start
            return false
        }
        return true
    }

    /// Consumes `"name":`; names the writer writes need no escapes.
    private mutating func member(_ name: String) -> Bool {
        guard expect("\"") else { return false }
        for b in name.utf8 {
            guard i < bytes.count, bytes[i] == b else { return false }
            i += 1
        }
        return expect("\"") && expect(":")
    }

    /// An integer in Int64 range, as `JSONParser` reads one: `-`? digits, no fraction or exponent.
    private mutating func integer() -> Int64? {
        skipSpace()
        let negative = i < bytes.count && bytes[i] == 0x2D
        if negative { i += 1 }
        let start = i
        var magnitude: UInt64 = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(bytes[i] - 0x30))
            guard !o1, !o2 else { return nil }
            magnitude = s
            i += 1
        }
        guard i > start else { return nil }
        if i < bytes.count, bytes[i] == 0x2E || bytes[i] == 0x65 || bytes[i] == 0x45 { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A double as `JSONRecordCodec.readDouble` reads it: a number (an integer through Int64, as the
    /// tree did), or one of the strings for what JSON has no literal for.
    private mutating func double() -> Double? {
        skipSpace()
        guard i < bytes.count else { return nil }
        if bytes[i] == 0x22 {
            guard let text = string() else { return nil }
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: return text.hasPrefix("bits:") ? UInt64(text.dropFirst(5), radix: 16).map(Double.init(bitPattern:)) : nil
            }
        }
        let start = i
        if let n = integer() { return Double(n) }
        i = start
        // JSON's number grammar, exactly: -? digits (. digits)? ([eE] [+-]? digits)?
        func digits() -> Bool {
            let first = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i > first
        }
        if i < bytes.count, bytes[i] == 0x2D { i += 1 }
        guard digits() else { return nil }
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            guard digits() else { return nil }
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            guard digits() else { return nil }
        }
        guard i - start < 64 else { return nil }
        // strtod reads what Swift's `description` writes, correctly rounded, as `Double(String)` does;
        // a number out of range is left to the full parser.
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: i - start + 1) { buffer -> Double? in
            for k in start..<i { buffer[k - start] = CChar(bitPattern: bytes[k]) }
            buffer[i - start] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + (i - start) ? value : nil
        }
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A string, validated as UTF-8, decoded in place when it has no escapes (the common case).
    private mutating func string() -> String? {
        guard expect("\"") else { return nil }
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 {
                i += 1
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
            }
            if b == 0x5C { return escapedString(from: start) }
            if b < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// The rest of a string holding escapes, decoded as `JSONParser` decodes them.
    private mutating func escapedString(from start: Int) -> String? {
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == 0x22 { return String(validating: out, as: UTF8.self) }
            if b < 0x20 { return nil }
            guard b == 0x5C else {
                out.append(b)
                continue
            }
            guard i < bytes.count else { return nil }
            let e = bytes[i]
            i += 1
            if let decoded = JSONEscape.simple(e) {
                out.append(decoded)
                continue
            }
            // Surrogate pairs are rare: the full parser decodes them.
            guard e == UInt8(ascii: "u"), let scalar = hex4(), !(0xD800...0xDFFF).contains(scalar),
                  let u = Unicode.Scalar(scalar) else { return nil }
            out.append(contentsOf: Array(String(Character(u)).utf8))
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard let v = JSONEscape.hex4(bytes, at: i) else { return nil }
        i += 4
        return v
    }

    /// Skips to the start of the next line (the one-line schema record, checked on its own).
    private mutating func skipLine() -> Bool {
        while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
        guard i < bytes.count else { return false }
        i += 1
        return true
    }

    /// Skips an array of plain strings (the schema's description).
    private mutating func skipStrings() -> Bool {
        guard expect("[") else { return false }
        if peek("]") { return expect("]") }
        repeat {
            guard string() != nil else { return false }
        } while expect(",")
        return expect("]")
    }
}
