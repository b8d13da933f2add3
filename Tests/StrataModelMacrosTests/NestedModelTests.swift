import Testing

/// A model declared inside a `VersionedSchema` namespace (`enum SchemaV1 { @Model final class Trip }`):
/// the conformance extension must name the qualified type, since the bare name does not resolve
/// at file scope.
@Suite struct NestedModelTests {
    @Test func extensionNamesTheQualifiedType() {
        expectExpansion(
            #"""
            enum SchemaV1 {
                @Model final class Trip {
                }
            }
            """#,
            #"""
            enum SchemaV1 {
                final class Trip {

                    /// The ordinals of the persisted properties: this model has none.
                    public enum _$Property: CaseIterable {
                    }

                    /// The object's observation registrar, made when a property is first read.
                    @exclusivity(unchecked) private var _$observationRegistrar: Observation.ObservationRegistrar? = nil

                    /// The backing data: the context's for a fetched object, made on first use for a new one.
                    @exclusivity(unchecked) private var _$backingData: StrataModel.ModelBackingData? = nil

                    /// The model's identity, context and change tracking.
                    public var persistentBackingData: StrataModel.ModelBackingData {
                        _$backingData ?? _$newBackingData()
                    }

                    /// Makes a new object's backing data, with a temporary identifier, when it is first used.
                    @inline(never) private func _$newBackingData() -> StrataModel.ModelBackingData {
                        let made = StrataModel.ModelBackingData(for: Trip.self)
                        _$backingData = made
                        return made
                    }

                    /// The persisted properties, as the schema sees them.
                    public static var schemaMetadata: [StrataModel.ModelPropertyMetadata] {
                        [
                        ]
                    }

                    /// The `#Unique` and `#Index` declarations, by property name.
                    public static var schemaConstraints: StrataModel.ModelConstraints {
                        StrataModel.ModelConstraints(unique: [], indexes: [])
                    }

                    /// The name of the persisted property a key path designates (Linux key paths carry no names).
                    public static func propertyName(for keyPath: AnyKeyPath) -> String? {

                        return nil
                    }

                    /// The key path of a persisted property, from the model or from an optional of it (to match
                    /// sort key paths through to-one relationships, which Linux cannot name at run time).
                    public static func _$keyPath(_ ordinal: Int, optionalRoot: Bool) -> AnyKeyPath? {
                        switch ordinal {
                        default:
                            return nil
                        }
                    }

                    /// Makes the object for a record the store holds, with the backing data the context made
                    /// for it; properties load on first access.
                    public init(_$fetched backingData: StrataModel.ModelBackingData) {
                        _$backingData = backingData
                    }

                    /// The current value of a property for a save (`.stored` when not loaded, hence unchanged).
                    public func _$encode(_ ordinal: Int) -> StrataModel._PropertyValue {
                        switch ordinal {

                        default:
                            return .stored
                        }
                    }

                    /// Sets an attribute from a stored value (upserts copy values this way); relationships ignore it.
                    public func _$assign(_ ordinal: Int, _ value: Strata.Value) throws {
                        switch ordinal {

                        default:
                            break
                        }
                    }

                    /// Drops every loaded value, so the next access reads the stored record.
                    public func _$refault() {

                    }

                    /// Applies the other side of a relationship change to this object's relationship `ordinal`.
                    public func _$inverse(_ ordinal: Int, _ change: StrataModel._InverseChange) {
                        switch ordinal {

                        default:
                            break
                        }
                    }
                }
            }

            extension SchemaV1.Trip: StrataModel.PersistentModel, Observation.Observable {
            }
            """#)
    }
}
