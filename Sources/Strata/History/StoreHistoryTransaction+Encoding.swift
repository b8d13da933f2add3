import Foundation

/// The stored form of a history transaction: JSON, the shape Swift's synthesized `Codable` gives
/// the types (so every store written since history shipped reads unchanged, and any JSON tool reads
/// it), written by hand because `JSONEncoder` was most of a save's cost with history on (58% of
/// LMDB's update-one). docs/history.md, "Stored form", has the shape and the reasons.
extension StoreHistoryTransaction {
    /// The transaction as bytes, for a backend's history table (JSON: readable with any tool).
    @_spi(StrataEngine) public func encoded() throws -> [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// Appends the encoded transaction to `bytes` (a writer can keep one buffer across saves).
    @_spi(StrataEngine) public func encode(into bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + 256 + 320 * changes.count)
        var w = HistoryJSONWriter(bytes: bytes)
        bytes = []
        w.transaction(self)
        bytes = w.bytes
    }

    /// Reads `encoded()` bytes back.
    ///
    /// - Throws: `corruptStore` when they are not a transaction.
    @_spi(StrataEngine) public init(decoding bytes: some Collection<UInt8>, file: String?) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        do { self = try decoder.decode(StoreHistoryTransaction.self, from: Data(bytes)) } catch {
            throw StrataError(.corruptStore, "A history transaction cannot be read: \(error).", file: file)
        }
    }
}

/// Writes the synthesized-`Codable` JSON of history types into a byte buffer: objects in the
/// types' property order, `nil` optionals left out, a `Value` as `[type, payload]`
/// (`Value+Codable.swift`), a `RelationshipValue` as `{"toOne":{"_0":…}}` / `{"toMany":{"_0":[…]}}`,
/// the timestamp in whole milliseconds since 1970 (`JSONEncoder`'s `.millisecondsSince1970`).
struct HistoryJSONWriter {
    var bytes: [UInt8]
    /// The last identifier's store and entity, and its encoding up to the primary key: the
    /// identifiers of one transaction mostly share both, so they are escaped once.
    private var identifierHead: (store: String, entity: String, bytes: [UInt8])?

    init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func integer(_ n: Int64) {
        if n < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(n.magnitude)
        } else {
            unsigned(UInt64(n))
        }
    }

    private mutating func unsigned(_ n: UInt64) {
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes ≥ 20 digits
        var count = 0
        var rest = n
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[39 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: buffer[(40 - count)...])
        }
    }

    private mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            for i in utf8.indices {
                let b = utf8[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                switch b {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    let hex: StaticString = "0123456789abcdef"
                    raw("\\u00")
                    bytes.append(hex.utf8Start[Int(b >> 4)])
                    bytes.append(hex.utf8Start[Int(b & 0xF)])
                }
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func double(_ d: Double) {
        if d.isFinite && !(d == 0 && d.sign == .minus) {
            bytes.append(contentsOf: d.description.utf8)
        } else {
            string("bits:" + String(d.bitPattern, radix: 16))
        }
    }

    private mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    mutating func transaction(_ t: StoreHistoryTransaction) {
        raw("{\"token\":{\"storeIdentifier\":")
        string(t.token.storeIdentifier)
        raw(",\"transaction\":")
        integer(t.token.transaction)
        raw("}")
        if let author = t.author {
            raw(",\"author\":")
            string(author)
        }
        raw(",\"timestamp\":")
        let milliseconds = t.timestamp.timeIntervalSince1970 * 1000
        if milliseconds == milliseconds.rounded(), abs(milliseconds) < 9e15 { integer(Int64(milliseconds)) } else { double(milliseconds) }
        raw(",\"changes\":[")
        for (i, change) in t.changes.enumerated() {
            if i > 0 { raw(",") }
            self.change(change)
        }
        raw("]}")
    }

    private mutating func change(_ c: StoreHistoryChange) {
        switch c.kind {
        case .insert: raw("{\"kind\":\"insert\",\"identifier\":")
        case .update: raw("{\"kind\":\"update\",\"identifier\":")
        case .delete: raw("{\"kind\":\"delete\",\"identifier\":")
        }
        identifier(c.identifier)
        if c.attributes.isEmpty && c.relationships.isEmpty && c.tombstone.isEmpty {
            // An insert's change: everything after the flag is empty.
            if c.isStoreInitiated {
                raw(",\"isStoreInitiated\":true,\"attributes\":[],\"relationships\":[],\"tombstone\":{}}")
            } else {
                raw(",\"isStoreInitiated\":false,\"attributes\":[],\"relationships\":[],\"tombstone\":{}}")
            }
            return
        }
        raw(",\"isStoreInitiated\":")
        bool(c.isStoreInitiated)
        raw(",\"attributes\":[")
        for (i, a) in c.attributes.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"name\":")
            string(a.name)
            raw(",\"old\":")
            value(a.old)
            raw(",\"new\":")
            value(a.new)
            raw("}")
        }
        raw("],\"relationships\":[")
        for (i, r) in c.relationships.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"name\":")
            string(r.name)
            raw(",\"old\":")
            relationship(r.old)
            raw(",\"new\":")
            relationship(r.new)
            raw("}")
        }
        raw("],\"tombstone\":{")
        var first = true
        for (name, v) in c.tombstone {
            if !first { raw(",") }
            first = false
            string(name)
            raw(":")
            value(v)
        }
        raw("}}")
    }

    private mutating func identifier(_ id: PersistentIdentifier) {
        if let head = identifierHead, head.store == id.storeIdentifier, head.entity == id.entityName {
            bytes.append(contentsOf: head.bytes)
        } else {
            let start = bytes.count
            raw("{\"storeIdentifier\":")
            string(id.storeIdentifier)
            raw(",\"entityName\":")
            string(id.entityName)
            raw(",\"primaryKey\":")
            identifierHead = (id.storeIdentifier, id.entityName, Array(bytes[start...]))
        }
        integer(id.primaryKey)
        if id.isTemporary { raw(",\"isTemporary\":true}") } else { raw(",\"isTemporary\":false}") }
    }

    private mutating func relationship(_ r: RelationshipValue) {
        switch r {
        case .toOne(let id):
            raw("{\"toOne\":{")
            if let id {
                raw("\"_0\":")
                identifier(id)
            }
            raw("}}")
        case .toMany(let ids):
            raw("{\"toMany\":{\"_0\":[")
            for (i, id) in ids.enumerated() {
                if i > 0 { raw(",") }
                identifier(id)
            }
            raw("]}}")
        }
    }

    private mutating func value(_ v: Value) {
        switch v {
        case .null: raw("[\"null\"]")
        case .bool(let b):
            raw("[\"bool\",")
            bool(b)
        case .int(let n):
            raw("[\"int\",")
            integer(n)
        case .double(let d):
            raw("[\"double\",")
            double(d)
        case .string(let s):
            raw("[\"string\",")
            string(s)
        case .date(let d):
            raw("[\"date\",")
            double(d.timeIntervalSinceReferenceDate)
        case .data(let d):
            raw("[\"data\",")
            string(d.base64EncodedString())
        case .uuid(let u):
            raw("[\"uuid\",")
            string(u.uuidString)
        case .url(let u):
            raw("[\"url\",")
            string(u.absoluteString)
        }
        if !v.isNull { raw("]") }
    }
}
