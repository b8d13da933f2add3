import Foundation

/// Turns values known at translation time (literals, captured variables) into what the store
/// compares: core `Value`s, identifiers, lists.
enum PredicateConstants {
    /// Whether `value` is an optional holding nothing. Only an optional is cast to
    /// `OptionalProtocol` (`BuiltInAttributeTypes` says why a protocol cast is avoided).
    static func isNil(_ value: Any) -> Bool {
        guard BuiltInAttributeTypes.isOptional(value) else { return false }
        return (value as? any OptionalProtocol)?.isNone ?? false
    }

    /// The stored form of an attribute value: the core types and every `ModelAttributeValue`
    /// directly, a raw-value enum by its raw value, `nil` as null. `nil` if it has none (a
    /// `Codable` document, a model).
    static func storedValue(_ value: Any) -> Value? {
        if let builtIn = BuiltInAttributeTypes.storedValue(value) { return builtIn }
        if isNil(value) { return .null }
        if let v = value as? any ModelAttributeValue { return v.attributeValue }
        if let r = value as? any RawRepresentable {
            func raw<R: RawRepresentable>(_ r: R) -> Any { r.rawValue }
            return (raw(r) as? any ModelAttributeValue)?.attributeValue
        }
        return nil
    }

    /// The identifier a model object or an identifier value stands for; `.none` for `nil`,
    /// `nil` if `value` is neither.
    static func identifier(_ value: Any) -> PersistentIdentifier?? {
        if isNil(value) { return .some(nil) }
        if let model = value as? any PersistentModel { return .some(model.persistentModelID) }
        if let id = value as? PersistentIdentifier { return .some(id) }
        return nil
    }

    /// The elements of a sequence value (an array, a set…); `nil` if it is not one.
    static func elements(_ value: Any) -> [Any]? {
        guard !isNil(value), let sequence = value as? any Sequence else { return nil }
        func all<S: Sequence>(_ s: S) -> [Any] { s.map { $0 as Any } }
        return all(sequence)
    }

    /// The bounds of a `Range` or `ClosedRange` value.
    static func bounds(_ value: Any) -> (lower: Any, upper: Any, closed: Bool)? {
        (value as? any BoundedRange)?.strataBounds
    }

    /// A string value.
    static func string(_ value: Any) -> String? {
        if let s = value as? String { return s }
        if let s = value as? Substring { return String(s) }
        return nil
    }
}

/// Lets a translator see whether an `Any` holds an empty optional.
protocol OptionalProtocol {
    /// Whether it is `.none`.
    var isNone: Bool { get }
    /// The type it wraps.
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalProtocol {
    var isNone: Bool { self == nil }
    static var wrappedType: Any.Type { Wrapped.self }
}

/// Lets a translator read the bounds of a captured range.
protocol BoundedRange {
    /// The lower and upper bound, and whether the upper one is included.
    var strataBounds: (lower: Any, upper: Any, closed: Bool) { get }
}

extension Range: BoundedRange {
    var strataBounds: (lower: Any, upper: Any, closed: Bool) { (lowerBound, upperBound, false) }
}

extension ClosedRange: BoundedRange {
    var strataBounds: (lower: Any, upper: Any, closed: Bool) { (lowerBound, upperBound, true) }
}
