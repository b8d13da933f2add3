import Foundation
@_spi(StrataEngine) import Strata

/// Turns stored records into JSON objects and back, exactly.
///
/// A record is `{"@id": key, "<attribute>": value, …, "<to-one>": key or null, "<to-many>": [keys]}`.
/// Values follow the attribute type: Bool → true/false, Int → integer (Int64 exactly), Double →
/// number (shortest text that reads back to the same bits, −0 as `-0.0`) or `"NaN"`, `"Infinity"`,
/// `"-Infinity"` (`"bits:<hex>"` for a NaN with a payload), String → string, Date → seconds since
/// 2001-01-01 as a double, Data → base64, UUID and URL → string.
enum JSONRecordCodec {
    static func write(_ value: Value, to w: inout JSONWriter) {
        switch value {
        case .null: w.raw("null")
        case .bool(let b): w.raw(b ? "true" : "false")
        case .int(let n): w.int(n)
        case .double(let d): writeDouble(d, to: &w)
        case .date(let d): writeDouble(d.timeIntervalSinceReferenceDate, to: &w)
        case .string(let s): w.string(s)
        case .data(let d): w.string(d.base64EncodedString())
        case .uuid(let u): w.string(u.uuidString)
        case .url(let u): w.string(u.absoluteString)
        }
    }

    private static func writeDouble(_ d: Double, to w: inout JSONWriter) {
        if d.isFinite {
            w.raw("\(d)")
        } else if d == .infinity {
            w.string("Infinity")
        } else if d == -.infinity {
            w.string("-Infinity")
        } else if d.bitPattern == Double.nan.bitPattern {
            w.string("NaN")
        } else {
            w.string("bits:" + String(d.bitPattern, radix: 16))
        }
    }

    static func writeRecord(_ entity: EntitySchema, _ key: Int64, _ record: StoredRecord, to w: inout JSONWriter) {
        w.raw("{\"@id\":")
        w.int(key)
        // By index, not `enumerated()`: the optimizer destroyed each `(offset, element)` pair of the
        // relationship loop through the runtime's generic value witnesses (its outlined destroy was
        // merged with another function's), a twentieth of the insert step (limit:
        // Benchmarks/Thresholds/json-insert.txt).
        for i in entity.attributes.indices {
            w.raw(",")
            w.string(entity.attributes[i].name)
            w.raw(":")
            write(record.attributes[i], to: &w)
        }
        for i in entity.relationships.indices {
            w.raw(",")
            w.string(entity.relationships[i].name)
            w.raw(":")
            switch record.links[i] {
            case .one(let k?): w.int(k)
            case .one(nil): w.raw("null")
            case .many(let ks):
                w.raw("[")
                for (n, k) in ks.enumerated() {
                    if n > 0 { w.raw(",") }
                    w.int(k)
                }
                w.raw("]")
            }
        }
        w.raw("}")
    }

    /// Reads a record; `where` names the file for errors.
    static func readRecord(_ json: JSONValue, _ entity: EntitySchema, file: String) throws -> (Int64, StoredRecord) {
        func corrupt(_ what: String) -> StrataError {
            StrataError(.corruptStore, "A record of '\(entity.name)' in the store file \(what).", entity: entity.name, file: file)
        }
        guard case .object(let members) = json else { throw corrupt("is not an object") }
        var byName: [String: JSONValue] = [:]
        for (k, v) in members { byName[k] = v }
        guard case .int(let key)? = byName["@id"] else { throw corrupt("has no integer \"@id\"") }
        var attributes: [Value] = []
        for a in entity.attributes {
            let value = try readValue(byName[a.name] ?? .null, a.type)
            guard let value else { throw corrupt("\(key) holds a value of the wrong type in '\(a.name)'") }
            attributes.append(value)
        }
        var links: [Link] = []
        for r in entity.relationships {
            switch (byName[r.name] ?? (r.isToMany ? .array([]) : .null), r.isToMany) {
            case (.null, false): links.append(.one(nil))
            case (.int(let k), false): links.append(.one(k))
            case (.array(let items), true):
                links.append(.many(try items.map { item in
                    guard case .int(let k) = item else { throw corrupt("\(key) holds a non-integer key in '\(r.name)'") }
                    return k
                }))
            default: throw corrupt("\(key) holds a value of the wrong shape in '\(r.name)'")
            }
        }
        return (key, StoredRecord(attributes: attributes, links: links))
    }

    /// The value of a JSON field for an attribute of `type`, or `nil` if it does not fit.
    static func readValue(_ json: JSONValue, _ type: AttributeType) throws -> Value? {
        if case .null = json { return .null }
        switch (type, json) {
        case (.bool, .bool(let b)): return .bool(b)
        case (.int, .int(let n)): return .int(n)
        case (.double, _): return readDouble(json).map(Value.double)
        case (.date, _): return readDouble(json).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case (.string, .string(let s)): return .string(s)
        case (.data, .string(let s)): return Data(base64Encoded: s).map(Value.data)
        case (.uuid, .string(let s)): return UUID(uuidString: s).map(Value.uuid)
        case (.url, .string(let s)): return URL(string: s).map(Value.url)
        default: return nil
        }
    }

    private static func readDouble(_ json: JSONValue) -> Double? {
        switch json {
        case .double(let d): return d
        case .int(let n): return Double(n)
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let s) where s.hasPrefix("bits:"): return UInt64(s.dropFirst(5), radix: 16).map(Double.init(bitPattern:))
        default: return nil
        }
    }
}
