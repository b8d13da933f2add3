import Foundation

/// The Swift types the model layer itself stores as core attribute values (its own
/// `ModelAttributeValue` conformances), recognized by comparing metatypes.
///
/// Why not `value as? any ModelAttributeValue`: the first cast of each type to a protocol makes
/// the Swift runtime scan every protocol-conformance record of the process (about half a million
/// instructions in a program linking Foundation; the answer is cached per type and protocol), and
/// a `#Predicate` fetch met several such casts for its captured values and its sort key. These
/// types answer with a pointer comparison; any other type (a raw-value enum, a user's own
/// `ModelAttributeValue`, an optional) still takes the protocol casts, with the same result.
enum BuiltInAttributeTypes {
    /// The stored form of `value` if its type is one of the built-in attribute types; `nil` for
    /// any other type, including an optional holding one (the caller's general path decides those).
    static func storedValue(_ value: Any) -> Value? {
        let type = Swift.type(of: value)
        if type == Int.self { return (value as! Int).attributeValue }
        if type == String.self { return (value as! String).attributeValue }
        if type == Double.self { return (value as! Double).attributeValue }
        if type == Bool.self { return (value as! Bool).attributeValue }
        if type == Date.self { return (value as! Date).attributeValue }
        if type == UUID.self { return (value as! UUID).attributeValue }
        if type == Int64.self { return (value as! Int64).attributeValue }
        if type == Float.self { return (value as! Float).attributeValue }
        if type == Data.self { return (value as! Data).attributeValue }
        if type == URL.self { return (value as! URL).attributeValue }
        if type == Int32.self { return (value as! Int32).attributeValue }
        if type == Int16.self { return (value as! Int16).attributeValue }
        if type == Int8.self { return (value as! Int8).attributeValue }
        if type == UInt32.self { return (value as! UInt32).attributeValue }
        if type == UInt16.self { return (value as! UInt16).attributeValue }
        if type == UInt8.self { return (value as! UInt8).attributeValue }
        return nil
    }

    /// Whether `type` is one of the built-in attribute types (not an optional of one).
    static func contains(_ type: Any.Type) -> Bool {
        all.contains { $0 == type }
    }

    /// Every built-in attribute type, most common first.
    private static let all: [Any.Type] = [
        Int.self, String.self, Double.self, Bool.self, Date.self, UUID.self, Int64.self, Float.self,
        Data.self, URL.self, Int32.self, Int16.self, Int8.self, UInt32.self, UInt16.self, UInt8.self,
    ]

    /// Whether `value` is an optional (of any wrapped type), read from its type's metadata kind
    /// rather than by a protocol cast.
    static func isOptional(_ value: Any) -> Bool {
        _openExistential(value, do: isOptionalValue)
    }
}

/// Whether `T` is an `Optional`. A global function: the compiler (6.3.1) crashes lowering
/// `_openExistential` applied to a generic static method.
private func isOptionalValue<T>(_: T) -> Bool { _isOptional(T.self) }
