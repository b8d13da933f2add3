/// Picks the codec of a declared property type at compile time.
///
/// The macro writes `_$codec((T).self)` for every persisted property; overload resolution picks
/// the most specific match, so one spelling serves attributes and relationships alike. The
/// ranking is deliberate: `ModelAttributeValue` refines `Codable`, so a core type is stored
/// directly rather than as a document; a raw-value enum that is also `Codable` is stored by raw
/// value; an optional is matched before the plain `Codable` overload takes `Optional` itself.

/// A core attribute type.
@inlinable public func _$codec<T: ModelAttributeValue>(_: T.Type) -> _CoreCodec<T>.Type { _CoreCodec<T>.self }
/// An optional core attribute type.
@inlinable public func _$codec<T: ModelAttributeValue>(_: T?.Type) -> _OptionalCoreCodec<T>.Type { _OptionalCoreCodec<T>.self }
/// A raw-value enum.
@inlinable public func _$codec<T: RawRepresentable>(_: T.Type) -> _RawCodec<T>.Type where T.RawValue: ModelAttributeValue { _RawCodec<T>.self }
/// A raw-value enum that is also `Codable`: still stored by raw value.
@inlinable public func _$codec<T: RawRepresentable & Codable>(_: T.Type) -> _RawCodec<T>.Type where T.RawValue: ModelAttributeValue { _RawCodec<T>.self }
/// An optional raw-value enum.
@inlinable public func _$codec<T: RawRepresentable>(_: T?.Type) -> _OptionalRawCodec<T>.Type where T.RawValue: ModelAttributeValue { _OptionalRawCodec<T>.self }
/// An optional raw-value enum that is also `Codable`.
@inlinable public func _$codec<T: RawRepresentable & Codable>(_: T?.Type) -> _OptionalRawCodec<T>.Type where T.RawValue: ModelAttributeValue { _OptionalRawCodec<T>.self }
/// A `Codable` document (struct, array, dictionary).
@inlinable public func _$codec<T: Codable>(_: T.Type) -> _DocumentCodec<T>.Type { _DocumentCodec<T>.self }
/// An optional `Codable` document.
@inlinable public func _$codec<T: Codable>(_: T?.Type) -> _OptionalDocumentCodec<T>.Type { _OptionalDocumentCodec<T>.self }
/// A required to-one relationship.
@inlinable public func _$codec<D: PersistentModel>(_: D.Type) -> _ToOneCodec<D>.Type { _ToOneCodec<D>.self }
/// An optional to-one relationship.
@inlinable public func _$codec<D: PersistentModel>(_: D?.Type) -> _OptionalToOneCodec<D>.Type { _OptionalToOneCodec<D>.self }
/// A to-many relationship.
@inlinable public func _$codec<D: PersistentModel>(_: [D].Type) -> _ToManyCodec<D>.Type { _ToManyCodec<D>.self }
