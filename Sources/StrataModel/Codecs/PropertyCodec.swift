/// How one kind of property is read, written, saved and described; `_$codec(T.self)` picks the
/// codec for a declared type at compile time (see `CodecSelection.swift`).
///
/// Not meant for direct use: the accessors `@Model` generates call these.
public protocol _PropertyCodec {
    /// The declared Swift type of the property.
    associatedtype Property

    /// Reads the property, loading it from the stored record if needed.
    static func get<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ owner: M, _ ordinal: Int) -> Property
    /// Writes the property, tracking the change; returns what must happen to other objects
    /// (inverses, graph inserts), applied after the write so no two accesses to one slot overlap.
    static func set<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ newValue: Property, _ owner: M, _ ordinal: Int) -> _Effects
    /// The value for a save.
    static func encode(_ slot: _PersistedProperty<Property>) -> _PropertyValue
    /// Sets an attribute from a stored value; relationships ignore it.
    static func assign<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ value: Value, _ owner: M, _ ordinal: Int) throws
    /// Applies the other side of a relationship change; attributes ignore it.
    static func inverse<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ change: _InverseChange, _ owner: M, _ ordinal: Int) -> _Effects
}

/// A codec for an attribute: a conversion between the Swift type and a core `Value`.
public protocol _AttributeCodec: _PropertyCodec {
    /// The core type it is stored as.
    static var attributeType: AttributeType { get }
    /// Whether `nil` is allowed.
    static var isOptional: Bool { get }
    /// The stored representation.
    static func encodeValue(_ value: Property) -> Value
    /// The Swift value; throws `typeMismatch` when the stored value does not fit.
    static func decodeValue(_ value: Value) throws -> Property
    /// Whether every value of `attributeType` the store can hold decodes (so fetched records need
    /// no check); `false` for raw-value enums, documents and narrow integers.
    static var decodesEveryStoredValue: Bool { get }
}

extension _AttributeCodec {

    /// Reads the property, loading it from the stored record if needed.
    @inlinable
    public static func get<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ owner: M, _ ordinal: Int) -> Property {
        if case .value(let v) = slot.state { return v }
        let stored = owner.persistentBackingData.storedAttribute(ordinal)
        do {
            let v = try decodeValue(stored)
            slot.state = .value(v)
            return v
        } catch {
            // Unreachable: the context checks every record it turns into an object
            // (`ModelContext.checkRepresentable`), so a value that does not fit fails the fetch.
            owner.persistentBackingData.unreadable(ordinal, of: M.self, error)
        }
    }

    /// Documents, enums and narrow integers can meet stored values they cannot represent.
    public static var decodesEveryStoredValue: Bool { false }

    /// Writes the property and tracks the change.
    @inlinable
    public static func set<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ newValue: Property, _ owner: M, _ ordinal: Int) -> _Effects {
        slot.state = .value(newValue)
        owner.persistentBackingData.didChange(ordinal, owner: owner)
        return _Effects()
    }

    /// The value for a save.
    @inlinable
    public static func encode(_ slot: _PersistedProperty<Property>) -> _PropertyValue {
        if case .value(let v) = slot.state { return .attribute(encodeValue(v)) }
        return .stored
    }

    /// Sets the property from a stored value.
    public static func assign<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ value: Value, _ owner: M, _ ordinal: Int) throws {
        _ = set(&slot, try decodeValue(value), owner, ordinal)
    }

    /// Applies the other side of a relationship change.
    @inlinable
    public static func inverse<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ change: _InverseChange, _ owner: M, _ ordinal: Int) -> _Effects { _Effects() }

    /// The schema description (what `@Model`'s `schemaMetadata` lists). A literal default becomes
    /// the schema default; any other initializer is `initial`, evaluated only by a migration that
    /// fills the new attribute (`ModelPropertyMetadata.initialValue`).
    public static func describe(_ name: String, ordinal: Int, default value: Property? = nil, initial: (() -> Property)? = nil, _ options: ModelAttributeOption..., originalName: String? = nil, hashModifier: String? = nil) -> ModelPropertyMetadata {
        let attribute = Attribute(
            name, attributeType, optional: isOptional, default: value.map(encodeValue).flatMap { $0.isNull ? nil : $0 },
            unique: options.contains(.unique))
        let check: ((Value) throws -> Void)? = decodesEveryStoredValue ? nil : { _ = try decodeValue($0) }
        return ModelPropertyMetadata(name: name, ordinal: ordinal, originalName: originalName, hashModifier: hashModifier, kind: .attribute(attribute), storedValueCheck: check,
            initialValue: initial.map { make in { encodeValue(make()) } })
    }

    @usableFromInline
    static func mismatch(_ value: Value) -> StrataError {
        StrataError(.typeMismatch, "The stored value \(value) does not fit \(Property.self).")
    }
}
