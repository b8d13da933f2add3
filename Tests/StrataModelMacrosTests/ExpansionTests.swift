import Testing

/// Expansion snapshots: what the macros write for a class, a property and an actor.
@Suite struct ExpansionTests {
    /// With `marked`, the attribute and the relationship carry SwiftData's `hashModifier:` last,
    /// which reaches the schema description in the same place.
    @Test(arguments: [false, true]) func model(marked: Bool) {
        let nameMark = marked ? #", hashModifier: "name-2""# : ""
        let partsMark = marked ? #", hashModifier: "parts-2""# : ""
        expectExpansion(
            #"""
            @Model final class Item {
                @Attribute(.unique, originalName: "label"\#(nameMark)) var name: String
                var count: Int = 0
                @Relationship(deleteRule: .cascade, inverse: \Part.item\#(partsMark)) var parts: [Part] = []
                @Transient var cache = 0
                #Unique<Item>([\.name, \.count])
                #Index<Item>([\.count])
                init(name: String) { self.name = name }
            }
            """#,
            #"""
            final class Item {
                var name: String {
                    @storageRestrictions(initializes: _name)
                    init(initialValue) {
                        _name = StrataModel._PersistedProperty(initialValue)
                    }
                    get {
                        StrataModel._$access(&_$observationRegistrar, self, keyPath: \.name)
                        return StrataModel._$codec((String).self).get(&_name, self, _$Property.`name`.rawValue)
                    }
                    set {
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.name) {
                            StrataModel._$codec((String).self).set(&_name, newValue, self, _$Property.`name`.rawValue)
                        }
                        .apply()
                    }
                }

                private var _name: StrataModel._PersistedProperty<String>
                var count: Int {
                    @storageRestrictions(initializes: _count)
                    init(initialValue) {
                        _count = StrataModel._PersistedProperty(initialValue)
                    }
                    get {
                        StrataModel._$access(&_$observationRegistrar, self, keyPath: \.count)
                        return StrataModel._$codec((Int).self).get(&_count, self, _$Property.`count`.rawValue)
                    }
                    set {
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.count) {
                            StrataModel._$codec((Int).self).set(&_count, newValue, self, _$Property.`count`.rawValue)
                        }
                        .apply()
                    }
                }

                private var _count: StrataModel._PersistedProperty<Int>
                var parts: [Part] {
                    @storageRestrictions(initializes: _parts)
                    init(initialValue) {
                        _parts = StrataModel._PersistedProperty(initialValue)
                    }
                    get {
                        StrataModel._$access(&_$observationRegistrar, self, keyPath: \.parts)
                        return StrataModel._$codec(([Part]).self).get(&_parts, self, _$Property.`parts`.rawValue)
                    }
                    set {
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.parts) {
                            StrataModel._$codec(([Part]).self).set(&_parts, newValue, self, _$Property.`parts`.rawValue)
                        }
                        .apply()
                    }
                }

                private var _parts: StrataModel._PersistedProperty<[Part]>
                var cache = 0
                init(name: String) { self.name = name }

                /// The ordinals of the persisted properties, in declaration order.
                public enum _$Property: Int, CaseIterable {
                    case `name`, `count`, `parts`
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
                    let made = StrataModel.ModelBackingData(for: Item.self)
                    _$backingData = made
                    return made
                }

                /// The persisted properties, as the schema sees them.
                public static var schemaMetadata: [StrataModel.ModelPropertyMetadata] {
                    [
                        StrataModel._$codec((String).self).describe("name", ordinal: 0, .unique, originalName: "label"\#(nameMark)),
                        StrataModel._$codec((Int).self).describe("count", ordinal: 1, default: 0),
                        StrataModel._$codec(([Part]).self).describe("parts", ordinal: 2, initial: {
                                []
                            }, deleteRule: .cascade, inverse: \Part.item\#(partsMark))
                    ]
                }

                /// The `#Unique` and `#Index` declarations, by property name.
                public static var schemaConstraints: StrataModel.ModelConstraints {
                    StrataModel.ModelConstraints(unique: [["name", "count"]], indexes: [["count"]])
                }

                /// The name of the persisted property a key path designates (Linux key paths carry no names).
                public static func propertyName(for keyPath: AnyKeyPath) -> String? {
                    if keyPath == \Item.name as AnyKeyPath {
                        return "name"
                    }
                    if keyPath == \Item.count as AnyKeyPath {
                        return "count"
                    }
                    if keyPath == \Item.parts as AnyKeyPath {
                        return "parts"
                    }
                    return nil
                }

                /// The key path of a persisted property, from the model or from an optional of it (to match
                /// sort key paths through to-one relationships, which Linux cannot name at run time).
                public static func _$keyPath(_ ordinal: Int, optionalRoot: Bool) -> AnyKeyPath? {
                    switch ordinal {
                    case 0:
                        return optionalRoot ? (\Item?.?.name as AnyKeyPath) : (\Item.name as AnyKeyPath)
                    case 1:
                        return optionalRoot ? (\Item?.?.count as AnyKeyPath) : (\Item.count as AnyKeyPath)
                    case 2:
                        return optionalRoot ? (\Item?.?.parts as AnyKeyPath) : (\Item.parts as AnyKeyPath)
                    default:
                        return nil
                    }
                }

                /// Makes the object for a record the store holds, with the backing data the context made
                /// for it; properties load on first access.
                public init(_$fetched backingData: StrataModel.ModelBackingData) {
                    _name = .fault
                    _count = .fault
                    _parts = .fault
                    _$backingData = backingData
                }

                /// The current value of a property for a save (`.stored` when not loaded, hence unchanged).
                public func _$encode(_ ordinal: Int) -> StrataModel._PropertyValue {
                    switch ordinal {
                    case 0:
                        return StrataModel._$codec((String).self).encode(_name)
                    case 1:
                        return StrataModel._$codec((Int).self).encode(_count)
                    case 2:
                        return StrataModel._$codec(([Part]).self).encode(_parts)
                    default:
                        return .stored
                    }
                }

                /// Sets an attribute from a stored value (upserts copy values this way); relationships ignore it.
                public func _$assign(_ ordinal: Int, _ value: Strata.Value) throws {
                    switch ordinal {
                    case 0:
                        try StrataModel._$codec((String).self).assign(&_name, value, self, 0)
                    case 1:
                        try StrataModel._$codec((Int).self).assign(&_count, value, self, 1)
                    case 2:
                        try StrataModel._$codec(([Part]).self).assign(&_parts, value, self, 2)
                    default:
                        break
                    }
                }

                /// Drops every loaded value, so the next access reads the stored record.
                public func _$refault() {
                    StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.name) {
                        _name.refault()
                    }
                    StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.count) {
                        _count.refault()
                    }
                    StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.parts) {
                        _parts.refault()
                    }
                }

                /// Applies the other side of a relationship change to this object's relationship `ordinal`.
                public func _$inverse(_ ordinal: Int, _ change: StrataModel._InverseChange) {
                    switch ordinal {
                    case 0:
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.name) {
                            StrataModel._$codec((String).self).inverse(&_name, change, self, 0)
                        } .apply()
                    case 1:
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.count) {
                            StrataModel._$codec((Int).self).inverse(&_count, change, self, 1)
                        } .apply()
                    case 2:
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.parts) {
                            StrataModel._$codec(([Part]).self).inverse(&_parts, change, self, 2)
                        } .apply()
                    default:
                        break
                    }
                }
            }

            extension Item: StrataModel.PersistentModel, Observation.Observable {
            }
            """#)
    }

    @Test func persistedProperty() {
        expectExpansion(
            #"""
            final class Note {
                @_PersistedProperty var title: String = "untitled"
            }
            """#,
            #"""
            final class Note {
                var title: String {
                    @storageRestrictions(initializes: _title)
                    init(initialValue) {
                        _title = StrataModel._PersistedProperty(initialValue)
                    }
                    get {
                        StrataModel._$access(&_$observationRegistrar, self, keyPath: \.title)
                        return StrataModel._$codec((String).self).get(&_title, self, _$Property.`title`.rawValue)
                    }
                    set {
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.title) {
                            StrataModel._$codec((String).self).set(&_title, newValue, self, _$Property.`title`.rawValue)
                        }
                        .apply()
                    }
                }

                private var _title: StrataModel._PersistedProperty<String>
            }
            """#)
    }

    @Test func persistedPropertyWithInferredType() {
        expectExpansion(
            #"""
            final class Counter {
                @_PersistedProperty var count = 0
            }
            """#,
            #"""
            final class Counter {
                var count {
                    @storageRestrictions(initializes: _count)
                    init(initialValue) {
                        _count = StrataModel._PersistedProperty(initialValue)
                    }
                    get {
                        StrataModel._$access(&_$observationRegistrar, self, keyPath: \.count)
                        return StrataModel._$codec((Int).self).get(&_count, self, _$Property.`count`.rawValue)
                    }
                    set {
                        StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \.count) {
                            StrataModel._$codec((Int).self).set(&_count, newValue, self, _$Property.`count`.rawValue)
                        }
                        .apply()
                    }
                }

                private var _count: StrataModel._PersistedProperty<Int>
            }
            """#)
    }

    @Test func markersExpandToNothing() {
        expectExpansion(
            #"""
            @Attribute(.unique) @Relationship(deleteRule: .deny) @Transient var x: Int
            """#,
            #"""
            var x: Int
            """#)
    }

    @Test func modelActor() {
        expectExpansion(
            #"""
            @ModelActor actor Importer {
                func run() {}
            }
            """#,
            #"""
            actor Importer {
                func run() {}

                /// The executor this actor runs on, holding its context (`modelContext`).
                public nonisolated let modelExecutor: any StrataModel.ModelExecutor

                /// The container this actor's context works on.
                public nonisolated let modelContainer: StrataModel.ModelContainer

                /// Makes the actor with a fresh context on `modelContainer`, run by its own serial executor.
                public init(modelContainer: StrataModel.ModelContainer) {
                    let modelContext = StrataModel.ModelContext(modelContainer)
                    self.modelExecutor = StrataModel.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Importer: StrataModel.ModelActor {
            }
            """#)
    }
}
