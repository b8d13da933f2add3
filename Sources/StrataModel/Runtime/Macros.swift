@_exported import Observation
@_exported import Strata

/// Makes a class a persistent model: its stored properties become the entity's attributes and
/// relationships, and the class gets `PersistentModel` and `Observable` conformance. The class may
/// be final or not (a non-final one gets `required` initializers); subclassing a model is not
/// supported.
///
/// ```swift
/// @Model final class Trip {
///     @Attribute(.unique) var name: String
///     var start: Date
///     @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) var items: [BucketListItem] = []
///     init(name: String, start: Date) { self.name = name; self.start = start }
/// }
/// ```
@attached(
    member,
    names: named(_$Property), named(_$observationRegistrar), named(_$backingData), named(persistentBackingData), named(_$newBackingData), named(schemaMetadata),
    named(schemaConstraints), named(propertyName), named(_$keyPath), named(init), named(_$encode), named(_$assign), named(_$refault), named(_$inverse))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model() = #externalMacro(module: "StrataModelMacros", type: "ModelMacro")

/// Put on each persisted property by `@Model`; not meant to be written by hand.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "StrataModelMacros", type: "PersistedPropertyMacro")

/// Options of an attribute: `.unique` makes a single-property unique constraint.
///
/// `originalName` is the property's previous name: a migration keeps its values under the new one.
/// `hashModifier` is a version mark (SwiftData's, Core Data's `versionHashModifier`): changing it,
/// and nothing else, makes the schema another version, so a store written with the old mark is
/// migrated although the type did not change (docs/migrations.md, "Hash modifiers").
@attached(peer)
public macro Attribute(_ options: ModelAttributeOption..., originalName: String? = nil, hashModifier: String? = nil) = #externalMacro(module: "StrataModelMacros", type: "MarkerMacro")

/// Options of a relationship: `.unique` (a to-one whose target no other record of the entity
/// may share), its delete rule, count bounds for a to-many (`0` or `nil`: no bound), its previous
/// name, its inverse (a key path on the destination) and a version mark (`hashModifier`, as on
/// `@Attribute`). SwiftData's signature, parameter for parameter.
@attached(peer)
public macro Relationship(
    _ options: ModelRelationshipOption..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0, maximumModelCount: Int? = 0,
    originalName: String? = nil, inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "StrataModelMacros", type: "MarkerMacro")

/// Keeps a property in memory only; it needs a default value, except an optional `var` (nil).
@attached(peer)
public macro Transient() = #externalMacro(module: "StrataModelMacros", type: "MarkerMacro")

/// Declares composite unique constraints inside a `@Model` class: `#Unique<Person>([\.first, \.last])`.
@freestanding(declaration)
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) = #externalMacro(module: "StrataModelMacros", type: "ConstraintMacro")

/// Declares indexes inside a `@Model` class: `#Index<Person>([\.last], [\.city, \.last])`.
@freestanding(declaration)
public macro Index<T>(_ indexes: [PartialKeyPath<T>]...) = #externalMacro(module: "StrataModelMacros", type: "ConstraintMacro")

/// Makes an actor with its own `ModelContext`, for background work: `@ModelActor actor Importer { … }`.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "StrataModelMacros", type: "ModelActorMacro")

/// An option of `@Attribute`.
public enum ModelAttributeOption: Sendable, Hashable {
    /// The attribute's value is unique among the entity's records (a unique constraint).
    case unique
    /// Accepted for SwiftData source compatibility; every Strata backend stores large values inline.
    case externalStorage
    /// SwiftData keeps the value in the persistent history when the record is deleted. Accepted for
    /// source compatibility and recorded nowhere yet: Strata has no persistent history (its own
    /// issue); the value is deleted with the record.
    case preserveValueOnDeletion
    /// SwiftData tracks changes to the property and does not persist it. Kept in memory only, as a
    /// `@Transient` property (it needs a default value, except an optional `var`); setting it does
    /// not make the object `hasChanges`.
    case ephemeral
    /// SwiftData indexes the value for Spotlight search. Accepted, no effect: Linux has no Spotlight.
    case spotlight
    /// SwiftData encrypts the value in CloudKit. Accepted, no effect: nothing syncs to CloudKit on
    /// Linux, and local stores keep values as they are (as SwiftData's local store does).
    case allowsCloudEncryption
    /// SwiftData stores the property through its `Codable` representation, which is how Strata
    /// stores any `Codable` value anyway.
    case codable
    /// SwiftData stores the value through the `ValueTransformer` registered under this name.
    /// Accepted; Linux Foundation has no `ValueTransformer`, so the value is stored by Strata's own
    /// coding (its type must be storable or `Codable`). `transformable(by: ValueTransformer.Type)`
    /// does not exist, for the same reason.
    case transformable(by: String)
}

extension Strata.Attribute {
    /// SwiftData's name for an attribute option, `Schema.Attribute.Option` (Strata's `Schema.Attribute`
    /// is the core's `Attribute`).
    public typealias Option = ModelAttributeOption
}

/// An option of `@Relationship` (SwiftData's `Schema.Relationship.Option`).
public enum ModelRelationshipOption: Sendable, Hashable {
    /// No two records of the entity hold the same target: a unique constraint on the to-one
    /// relationship, as `#Unique<T>([\.relationship])` declares it (a save that breaks it fails
    /// with `uniqueViolation`). Refused on a to-many (`invalidSchema`), as SwiftData supports
    /// unique constraints only on relationships that reference a single model.
    case unique
}

extension Strata.Relationship {
    /// SwiftData's name for a relationship option, `Schema.Relationship.Option` (Strata's
    /// `Schema.Relationship` is the core's `Relationship`).
    public typealias Option = ModelRelationshipOption
    /// SwiftData's name for a delete rule, `Schema.Relationship.DeleteRule`: the core's `DeleteRule`.
    public typealias DeleteRule = Strata.DeleteRule
}

extension Schema {
    /// SwiftData's name for an attribute of a schema: the core's `Attribute`.
    public typealias Attribute = Strata.Attribute
    /// SwiftData's name for a relationship of a schema: the core's `Relationship`.
    public typealias Relationship = Strata.Relationship
}
