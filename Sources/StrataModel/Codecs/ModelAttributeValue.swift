import Foundation

/// A Swift type stored as one of the core's attribute types; every core type and the usual
/// integer and floating-point widths conform.
///
/// Refines `Codable` so that, where a type could also be stored as a `Codable` document, the
/// direct representation wins overload resolution.
public protocol ModelAttributeValue: Codable {
    /// The core attribute type it is stored as.
    static var attributeType: AttributeType { get }
    /// The stored representation.
    var attributeValue: Value { get }
    /// The value back from its stored representation; `nil` if it does not fit.
    init?(attributeValue: Value)
    /// Whether every value of `attributeType` fits (backends return values of the schema's type,
    /// so fetched records need no check for these); `false` for narrow integers.
    static var decodesEveryStoredValue: Bool { get }
}

extension ModelAttributeValue {
    /// Every stored value of the core type fits, unless the type says otherwise.
    public static var decodesEveryStoredValue: Bool { true }
}

extension Bool: ModelAttributeValue {
    /// Stored as `bool`.
    public static var attributeType: AttributeType { .bool }
    /// `.bool(self)`.
    public var attributeValue: Value { .bool(self) }
    /// From `.bool`.
    public init?(attributeValue: Value) { guard let v = attributeValue.bool else { return nil }; self = v }
}

extension String: ModelAttributeValue {
    /// Stored as `string`.
    public static var attributeType: AttributeType { .string }
    /// `.string(self)`.
    public var attributeValue: Value { .string(self) }
    /// From `.string`.
    public init?(attributeValue: Value) { guard let v = attributeValue.string else { return nil }; self = v }
}

extension Double: ModelAttributeValue {
    /// Stored as `double`.
    public static var attributeType: AttributeType { .double }
    /// `.double(self)`.
    public var attributeValue: Value { .double(self) }
    /// From `.double`.
    public init?(attributeValue: Value) { guard let v = attributeValue.double else { return nil }; self = v }
}

extension Float: ModelAttributeValue {
    /// Stored as `double` (exactly: every Float is a Double).
    public static var attributeType: AttributeType { .double }
    /// `.double(Double(self))`.
    public var attributeValue: Value { .double(Double(self)) }
    /// From `.double`.
    public init?(attributeValue: Value) { guard let v = attributeValue.double else { return nil }; self = Float(v) }
}

extension Date: ModelAttributeValue {
    /// Stored as `date`.
    public static var attributeType: AttributeType { .date }
    /// `.date(self)`.
    public var attributeValue: Value { .date(self) }
    /// From `.date`.
    public init?(attributeValue: Value) { guard let v = attributeValue.date else { return nil }; self = v }
}

extension Data: ModelAttributeValue {
    /// Stored as `data`.
    public static var attributeType: AttributeType { .data }
    /// `.data(self)`.
    public var attributeValue: Value { .data(self) }
    /// From `.data`.
    public init?(attributeValue: Value) { guard let v = attributeValue.data else { return nil }; self = v }
}

extension UUID: ModelAttributeValue {
    /// Stored as `uuid`.
    public static var attributeType: AttributeType { .uuid }
    /// `.uuid(self)`.
    public var attributeValue: Value { .uuid(self) }
    /// From `.uuid`.
    public init?(attributeValue: Value) { guard let v = attributeValue.uuid else { return nil }; self = v }
}

extension URL: ModelAttributeValue {
    /// Stored as `url`.
    public static var attributeType: AttributeType { .url }
    /// `.url(self)`.
    public var attributeValue: Value { .url(self) }
    /// From `.url`.
    public init?(attributeValue: Value) { guard let v = attributeValue.url else { return nil }; self = v }
}

/// Integers are stored as the core's 64-bit `int`; a stored value out of the type's range does not fit.
public protocol ModelIntegerAttribute: ModelAttributeValue, FixedWidthInteger {}

extension ModelIntegerAttribute {
    /// Only the 64-bit widths hold every stored `int`.
    public static var decodesEveryStoredValue: Bool { Self.bitWidth == 64 && Self.isSigned }
    /// Stored as `int`.
    public static var attributeType: AttributeType { .int }
    /// `.int(Int64(self))`.
    public var attributeValue: Value { .int(Int64(self)) }
    /// From `.int`, if it fits.
    public init?(attributeValue: Value) {
        guard let v = attributeValue.int, let exact = Self(exactly: v) else { return nil }
        self = exact
    }
}

extension Int: ModelIntegerAttribute {}
extension Int64: ModelIntegerAttribute {}
extension Int32: ModelIntegerAttribute {}
extension Int16: ModelIntegerAttribute {}
extension Int8: ModelIntegerAttribute {}
extension UInt32: ModelIntegerAttribute {}
extension UInt16: ModelIntegerAttribute {}
extension UInt8: ModelIntegerAttribute {}
