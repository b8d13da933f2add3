import Foundation

/// `Value` encodes as a two-element array `[type, payload]`, e.g. `["int", -9223372036854775808]`.
///
/// Doubles and dates that JSON cannot hold exactly (NaN, ±infinity, −0) are written as the string
/// `"bits:"` followed by the IEEE-754 bit pattern in hex, so every value round-trips through any
/// Codable format, JSON included. Data is base64 (the encoder's default), URLs their absolute string.
extension Value: Codable {
    private static func encodeDouble(_ d: Double, into c: inout UnkeyedEncodingContainer) throws {
        if d.isFinite && !(d == 0 && d.sign == .minus) {
            try c.encode(d)
        } else {
            try c.encode("bits:" + String(d.bitPattern, radix: 16))
        }
    }

    private static func decodeDouble(from c: inout UnkeyedDecodingContainer) throws -> Double {
        if let d = try? c.decode(Double.self) { return d }
        let text = try c.decode(String.self)
        guard text.hasPrefix("bits:"), let bits = UInt64(text.dropFirst(5), radix: 16) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a number or bits:<hex>, found \(text)")
        }
        return Double(bitPattern: bits)
    }

    /// Encodes as `[type, payload]`; `.null` as `["null"]`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(type?.rawValue ?? "null")
        switch self {
        case .null: break
        case .bool(let v): try c.encode(v)
        case .int(let v): try c.encode(v)
        case .double(let v): try Self.encodeDouble(v, into: &c)
        case .string(let v): try c.encode(v)
        case .date(let v): try Self.encodeDouble(v.timeIntervalSinceReferenceDate, into: &c)
        case .data(let v): try c.encode(v)
        case .uuid(let v): try c.encode(v)
        case .url(let v): try c.encode(v.absoluteString)
        }
    }

    /// Decodes the `[type, payload]` form written by `encode(to:)`.
    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let tag = try c.decode(String.self)
        if tag == "null" { self = .null; return }
        guard let type = AttributeType(rawValue: tag) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown value type \(tag)")
        }
        switch type {
        case .bool: self = .bool(try c.decode(Bool.self))
        case .int: self = .int(try c.decode(Int64.self))
        case .double: self = .double(try Self.decodeDouble(from: &c))
        case .string: self = .string(try c.decode(String.self))
        case .date: self = .date(Date(timeIntervalSinceReferenceDate: try Self.decodeDouble(from: &c)))
        case .data: self = .data(try c.decode(Data.self))
        case .uuid: self = .uuid(try c.decode(UUID.self))
        case .url:
            let text = try c.decode(String.self)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "invalid URL \(text)")
            }
            self = .url(url)
        }
    }
}
