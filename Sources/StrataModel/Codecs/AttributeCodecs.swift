import Foundation

/// A core attribute type (`String`, `Int`, `Date`…).
public enum _CoreCodec<T: ModelAttributeValue>: _AttributeCodec {
    /// The declared Swift type.
    public typealias Property = T
    /// The core type it is stored as.
    @inlinable public static var attributeType: AttributeType { T.attributeType }
    /// Whether `nil` (or no target) is allowed.
    @inlinable public static var isOptional: Bool { false }
    /// The stored representation.
    @inlinable public static func encodeValue(_ value: T) -> Value { value.attributeValue }
    /// The Swift value from its stored representation.
    @inlinable public static func decodeValue(_ value: Value) throws -> T {
        guard let v = T(attributeValue: value) else { throw mismatch(value) }
        return v
    }
    /// Whether every stored value of the core type fits `T`.
    @inlinable public static var decodesEveryStoredValue: Bool { T.decodesEveryStoredValue }
}

/// An optional core attribute type; `nil` is the store's null.
public enum _OptionalCoreCodec<T: ModelAttributeValue>: _AttributeCodec {
    /// The declared Swift type.
    public typealias Property = T?
    /// The core type it is stored as.
    @inlinable public static var attributeType: AttributeType { T.attributeType }
    /// Whether `nil` (or no target) is allowed.
    @inlinable public static var isOptional: Bool { true }
    /// The stored representation.
    @inlinable public static func encodeValue(_ value: T?) -> Value { value?.attributeValue ?? .null }
    /// The Swift value from its stored representation.
    @inlinable public static func decodeValue(_ value: Value) throws -> T? {
        if value.isNull { return nil }
        guard let v = T(attributeValue: value) else { throw mismatch(value) }
        return v
    }
    /// Whether every stored value of the core type fits `T`.
    @inlinable public static var decodesEveryStoredValue: Bool { T.decodesEveryStoredValue }
}

/// An enum with a raw value, stored as its raw value.
public enum _RawCodec<T: RawRepresentable>: _AttributeCodec where T.RawValue: ModelAttributeValue {
    /// The declared Swift type.
    public typealias Property = T
    /// The core type it is stored as.
    public static var attributeType: AttributeType { T.RawValue.attributeType }
    /// Whether `nil` (or no target) is allowed.
    public static var isOptional: Bool { false }
    /// The stored representation.
    public static func encodeValue(_ value: T) -> Value { value.rawValue.attributeValue }
    /// The Swift value from its stored representation.
    public static func decodeValue(_ value: Value) throws -> T {
        guard let raw = T.RawValue(attributeValue: value), let v = T(rawValue: raw) else { throw mismatch(value) }
        return v
    }
}

/// An optional enum with a raw value.
public enum _OptionalRawCodec<T: RawRepresentable>: _AttributeCodec where T.RawValue: ModelAttributeValue {
    /// The declared Swift type.
    public typealias Property = T?
    /// The core type it is stored as.
    public static var attributeType: AttributeType { T.RawValue.attributeType }
    /// Whether `nil` (or no target) is allowed.
    public static var isOptional: Bool { true }
    /// The stored representation.
    public static func encodeValue(_ value: T?) -> Value { value?.rawValue.attributeValue ?? .null }
    /// The Swift value from its stored representation.
    public static func decodeValue(_ value: Value) throws -> T? {
        if value.isNull { return nil }
        guard let raw = T.RawValue(attributeValue: value), let v = T(rawValue: raw) else { throw mismatch(value) }
        return v
    }
}

/// A `Codable` value (a struct, an array…) stored as one JSON document in a string attribute, with
/// sorted keys so equal values store equal text.
public enum _DocumentCodec<T: Codable>: _AttributeCodec {
    /// The declared Swift type.
    public typealias Property = T
    /// The core type it is stored as.
    public static var attributeType: AttributeType { .string }
    /// Whether `nil` (or no target) is allowed.
    public static var isOptional: Bool { false }
    /// The stored representation.
    public static func encodeValue(_ value: T) -> Value { DocumentCoding.encode(value) }
    /// The value for a save, or why it cannot be stored.
    public static func encode(_ slot: _PersistedProperty<T>) -> _PropertyValue {
        guard case .value(let v) = slot.state else { return .stored }
        return DocumentCoding.propertyValue(v)
    }
    /// The Swift value from its stored representation.
    public static func decodeValue(_ value: Value) throws -> T { try DocumentCoding.decode(value) }
}

/// An optional `Codable` value; `nil` is the store's null.
public enum _OptionalDocumentCodec<T: Codable>: _AttributeCodec {
    /// The declared Swift type.
    public typealias Property = T?
    /// The core type it is stored as.
    public static var attributeType: AttributeType { .string }
    /// Whether `nil` (or no target) is allowed.
    public static var isOptional: Bool { true }
    /// The stored representation.
    public static func encodeValue(_ value: T?) -> Value { if let value { DocumentCoding.encode(value) } else { .null } }
    /// The value for a save, or why it cannot be stored.
    public static func encode(_ slot: _PersistedProperty<T?>) -> _PropertyValue {
        guard case .value(let v) = slot.state else { return .stored }
        guard let v else { return .attribute(.null) }
        return DocumentCoding.propertyValue(v)
    }
    /// The Swift value from its stored representation.
    public static func decodeValue(_ value: Value) throws -> T? { value.isNull ? nil : try DocumentCoding.decode(value) }
}

/// JSON text for `Codable` documents.
enum DocumentCoding {
    /// The JSON text of `value`; `"null"` when its `encode(to:)` throws. For a schema default or a
    /// predicate's constant only: a save goes through `propertyValue(_:)`, which refuses such a
    /// value rather than store `"null"` in its place.
    static func encode<T: Encodable>(_ value: T) -> Value {
        (try? encoded(value)) ?? .string("null")
    }

    /// A saved property's value: its JSON text, or `unencodable` with the encoder's error.
    static func propertyValue<T: Encodable>(_ value: T) -> _PropertyValue {
        do { return .attribute(try encoded(value)) } catch { return .unencodable("\(error)") }
    }

    private static func encoded<T: Encodable>(_ value: T) throws -> Value {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Non-finite floating-point numbers are stored as strings rather than refused; what still
        // throws is the value's own `encode(to:)`.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return .string(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func decode<T: Decodable>(_ value: Value) throws -> T {
        guard let text = value.string else { throw StrataError(.typeMismatch, "Expected a JSON document for \(T.self), found \(value).") }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do { return try decoder.decode(T.self, from: Data(text.utf8)) } catch {
            throw StrataError(.typeMismatch, "The stored document does not decode as \(T.self): \(error)")
        }
    }
}
