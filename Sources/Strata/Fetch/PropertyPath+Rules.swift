/// The rules of a property path in a fetch, written once for every backend (the core's evaluator and
/// the SQL layer's translation resolve paths their own way, and ask these for each step and each
/// error): a path names at least one property, every component names a property of the entity
/// reached so far, and only to-one relationships are followed — an attribute or a to-many ends it.
extension PropertyPath {
    /// Checks that the path names at least one property (read from `entity`).
    ///
    /// - Throws: `unknownProperty`.
    public func requireComponents(_ entity: EntitySchema) throws {
        guard !components.isEmpty else {
            throw StrataError(.unknownProperty, "An empty property path.", entity: entity.name)
        }
    }

    /// The property component `n` names on `current`, the entity the components before it reached.
    /// A relationship returned for a component that is not the last one is to-one.
    ///
    /// - Throws: `unknownProperty` for a name `current` does not declare; `typeMismatch` for an
    ///   attribute before the last component; `unsupported` for a to-many relationship there.
    public func step(_ n: Int, on current: EntitySchema) throws -> PropertyReference {
        let name = components[n]
        guard let property = current.property(named: name) else {
            throw StrataError(.unknownProperty, "Entity '\(current.name)' has no property '\(name)' (in path '\(self)').", entity: current.name, properties: [name])
        }
        guard n < components.count - 1 else { return property }
        switch property {
        case .attribute:
            throw StrataError(.typeMismatch, "'\(name)' in '\(self)' is an attribute; only to-one relationships can be followed.", entity: current.name, properties: [name])
        case .relationship(let i):
            guard !current.relationships[i].isToMany else {
                throw StrataError(.unsupported, "'\(name)' in '\(self)' is to-many; paths can only follow to-one relationships.", entity: current.name, properties: [name])
            }
        }
        return property
    }

    /// The error for a path that ends on a relationship where an attribute is needed (a comparison
    /// or a sort key); `entity` is the fetched one.
    public func notAnAttribute(_ entity: EntitySchema) -> StrataError {
        StrataError(.typeMismatch, "'\(self)' is a relationship; compare it with targetIs or contains, or sort by one of its attributes.", entity: entity.name, properties: [description])
    }

    /// The error for a path that does not end on a to-one relationship where `targetIs` needs one.
    public func notToOne(_ entity: EntitySchema) -> StrataError {
        StrataError(.typeMismatch, "'\(self)' is not a to-one relationship.", entity: entity.name, properties: [description])
    }

    /// The error for a path that does not end on a to-many relationship where `contains` needs one.
    public func notToMany(_ entity: EntitySchema) -> StrataError {
        StrataError(.typeMismatch, "'\(self)' is not a to-many relationship.", entity: entity.name, properties: [description])
    }

    /// The error for an `isNil` test of a to-many relationship (never nil: it holds a list).
    public func toManyNeverNil(_ entity: EntitySchema) -> StrataError {
        StrataError(.typeMismatch, "'\(self)' is a to-many relationship; it is never nil. Test its contents with contains.", entity: entity.name, properties: [description])
    }
}
