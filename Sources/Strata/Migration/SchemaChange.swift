/// One change between two versions of a schema: the vocabulary of a migration.
///
/// `SchemaMigration.lightweight(from:to:)` infers the list from two schemas (renames come from
/// `originalName`); a backend applies the whole list atomically (`DataStore.migrateStore`).
/// Entity names are the destination schema's unless the case says otherwise (a removed entity or
/// property is named as the source had it).
public enum SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// A new entity, empty.
    case addEntity(String)
    /// An entity and all its records dropped (named as in the source).
    case removeEntity(String)
    /// An entity renamed; its records stay, with their primary keys.
    case renameEntity(from: String, to: String)
    /// A new attribute: records get its default, or `nil` when it is optional without one.
    case addAttribute(entity: String, attribute: String)
    /// An attribute and its values dropped (named as in the source).
    case removeAttribute(entity: String, attribute: String)
    /// An attribute renamed; values stay.
    case renameAttribute(entity: String, from: String, to: String)
    /// An optional attribute made required: records holding `nil` get the attribute's default.
    case makeAttributeRequired(entity: String, attribute: String)
    /// A required attribute made optional.
    case makeAttributeOptional(entity: String, attribute: String)
    /// An attribute's default changed (records keep their values; new records start with it).
    case changeAttributeDefault(entity: String, attribute: String)
    /// A new relationship (with its inverse, a change of its own): records start with no targets.
    case addRelationship(entity: String, relationship: String)
    /// A relationship and its links dropped (named as in the source).
    case removeRelationship(entity: String, relationship: String)
    /// A relationship renamed; links stay.
    case renameRelationship(entity: String, from: String, to: String)
    /// A relationship's delete rule changed (applies to deletes from now on).
    case changeDeleteRule(entity: String, relationship: String, from: DeleteRule, to: DeleteRule)
    /// A to-many's order kept or dropped, or its count bounds changed (stored lists are checked
    /// against the new bounds).
    case changeRelationshipOptions(entity: String, relationship: String)
    /// A to-one made optional.
    case makeRelationshipOptional(entity: String, relationship: String)
    /// A unique constraint added (destination names): fails with `uniqueConstraintViolation`
    /// naming the colliding records when stored records already share values.
    case addUniqueConstraint(entity: String, properties: [String])
    /// A unique constraint dropped (destination names of its properties).
    case removeUniqueConstraint(entity: String, properties: [String])
    /// An index added.
    case addIndex(entity: String, properties: [String])
    /// An index dropped.
    case removeIndex(entity: String, properties: [String])

    /// Whether applying the change rewrites or checks stored values (as opposed to declarations
    /// only): what a backend that stores declarations apart from data may skip.
    public var touchesData: Bool {
        switch self {
        case .changeAttributeDefault, .changeDeleteRule, .makeAttributeOptional, .makeRelationshipOptional,
             .removeIndex, .addIndex, .removeUniqueConstraint:
            false
        default: true
        }
    }

    /// One readable line: `add attribute Trip.isPinned`.
    public var description: String {
        switch self {
        case .addEntity(let e): "add entity \(e)"
        case .removeEntity(let e): "remove entity \(e)"
        case .renameEntity(let a, let b): "rename entity \(a) to \(b)"
        case .addAttribute(let e, let a): "add attribute \(e).\(a)"
        case .removeAttribute(let e, let a): "remove attribute \(e).\(a)"
        case .renameAttribute(let e, let a, let b): "rename attribute \(e).\(a) to \(b)"
        case .makeAttributeRequired(let e, let a): "make attribute \(e).\(a) required"
        case .makeAttributeOptional(let e, let a): "make attribute \(e).\(a) optional"
        case .changeAttributeDefault(let e, let a): "change the default of \(e).\(a)"
        case .addRelationship(let e, let r): "add relationship \(e).\(r)"
        case .removeRelationship(let e, let r): "remove relationship \(e).\(r)"
        case .renameRelationship(let e, let a, let b): "rename relationship \(e).\(a) to \(b)"
        case .changeDeleteRule(let e, let r, let a, let b): "change the delete rule of \(e).\(r) from \(a.rawValue) to \(b.rawValue)"
        case .changeRelationshipOptions(let e, let r): "change the order or count bounds of \(e).\(r)"
        case .makeRelationshipOptional(let e, let r): "make relationship \(e).\(r) optional"
        case .addUniqueConstraint(let e, let p): "add unique constraint \(e)(\(p.joined(separator: ", ")))"
        case .removeUniqueConstraint(let e, let p): "remove unique constraint \(e)(\(p.joined(separator: ", ")))"
        case .addIndex(let e, let p): "add index \(e)(\(p.joined(separator: ", ")))"
        case .removeIndex(let e, let p): "remove index \(e)(\(p.joined(separator: ", ")))"
        }
    }
}
