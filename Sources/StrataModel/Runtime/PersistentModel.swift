/// A class whose instances are records of a store; `@Model` generates the conformance.
///
/// Models are not `Sendable`: each lives in one `ModelContext`. Pass `persistentModelID` between
/// actors and look the object up in the other context with `model(for:)`. Model *types* are
/// (`SendableMetatype`, as in SwiftData): `static let models: [any PersistentModel.Type] = […]`
/// in a `VersionedSchema` is concurrency-safe, and a type may be handed to another actor.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, Codable, SendableMetatype {
    /// The object's identity, context and change tracking.
    var persistentBackingData: ModelBackingData { get }
    /// The persisted properties, as the schema sees them.
    static var schemaMetadata: [ModelPropertyMetadata] { get }
    /// The `#Unique` and `#Index` declarations.
    static var schemaConstraints: ModelConstraints { get }
    /// The persisted property a key path designates.
    static func propertyName(for keyPath: AnyKeyPath) -> String?
    /// The key path of property `ordinal` (generated): `\Self.name`, or `\Self?.?.name` when
    /// `optionalRoot` — the pieces sort key paths through to-one relationships are matched against.
    static func _$keyPath(_ ordinal: Int, optionalRoot: Bool) -> AnyKeyPath?
    /// Makes the object for a stored record, with the backing data its context made for it
    /// (generated; used by the context).
    init(_$fetched backingData: ModelBackingData)
    /// The current value of property `ordinal` for a save (generated).
    func _$encode(_ ordinal: Int) -> _PropertyValue
    /// Sets attribute `ordinal` from a stored value (generated).
    func _$assign(_ ordinal: Int, _ value: Value) throws
    /// Drops loaded values so the next access reads the stored record (generated).
    func _$refault()
    /// Applies the other side of a relationship change (generated).
    func _$inverse(_ ordinal: Int, _ change: _InverseChange)
}

extension PersistentModel {
    /// The record's identifier: temporary until the first save, permanent after.
    public var persistentModelID: PersistentIdentifier { persistentBackingData.persistentModelID }
    /// The identifier, as SwiftData's models use it for `Identifiable`.
    public var id: PersistentIdentifier { persistentModelID }
    /// The context the object is registered in, if any.
    public var modelContext: ModelContext? { persistentBackingData.context }
    /// Whether the object has unsaved changes of its own properties.
    public var hasChanges: Bool { persistentBackingData.hasChanges }
    /// Whether the object was deleted (pending in its context, or saved).
    public var isDeleted: Bool { persistentBackingData.isDeleted }
    /// The entity name: the class name (described once per type: `EntityNames`).
    public static var entityName: String { EntityNames.name(of: Self.self) }

    /// Objects are equal when they stand for the same record: the same `persistentModelID`, as in
    /// SwiftData. The same record fetched in two contexts gives two objects that are equal; two new
    /// objects are never equal (each has its own temporary identifier).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs === rhs || lhs.persistentModelID == rhs.persistentModelID
    }
    /// Hashes the `persistentModelID`. A new object's hash changes at its first save, when its
    /// temporary identifier becomes permanent (as in SwiftData): don't keep unsaved objects in a
    /// `Set` or as dictionary keys across a save.
    public func hash(into hasher: inout Hasher) { hasher.combine(persistentModelID) }
}
