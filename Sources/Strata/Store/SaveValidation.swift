/// The checks every backend makes on a save request, written once so the errors are the same
/// everywhere: snapshot shape and attribute types, reference resolution, identifiers of updates and
/// deletes.
///
/// The shared engine uses them; a backend with its own storage (SQLite, LMDB) calls them before it
/// writes (see `SaveValidation+Rules.swift` for the shared delete, count and unique errors).
public enum SaveValidation {
    /// The store's entity for a snapshot: its identifier's entity, which must be the snapshot's.
    ///
    /// `entities` is the store schema's `Schema.entities`: a save asks once or more per record, and
    /// passing the whole `Schema` made callers copy it (a retain and release of each of its stored
    /// references) per call. The usual answer, the snapshot's own entity when it is this schema's, is
    /// inlined into the caller; anything else takes `entity(named:given:in:)`.
    ///
    /// - Throws: `unknownEntity`, or `schemaMismatch` for a snapshot built from another schema.
    @inlinable
    public static func entity(of identifier: PersistentIdentifier, given: EntitySchema, in entities: [EntitySchema]) throws -> EntitySchema {
        if given.index < entities.count, entities[given.index] === given, given.name == identifier.entityName { return given }
        return try entity(named: identifier, given: given, in: entities)
    }

    /// `entity(of:given:in:)` given the whole schema.
    ///
    /// - Throws: `unknownEntity`, or `schemaMismatch` for a snapshot built from another schema.
    @inlinable
    public static func entity(of identifier: PersistentIdentifier, given: EntitySchema, in schema: Schema) throws -> EntitySchema {
        try entity(of: identifier, given: given, in: schema.entities)
    }

    /// The entity `identifier` names when the snapshot's is not this schema's own: the same
    /// declaration from an equal schema (found at its index first), or an error.
    @usableFromInline
    static func entity(named identifier: PersistentIdentifier, given: EntitySchema, in entities: [EntitySchema]) throws -> EntitySchema {
        let name = identifier.entityName
        let entity: EntitySchema
        if given.index < entities.count, entities[given.index].name == name {
            entity = entities[given.index]
        } else if let named = entities.first(where: { $0.name == name }) {
            entity = named
        } else {
            throw Schema.unknownEntity(name, among: entities)
        }
        guard given === entity || given.declaration == entity.declaration else {
            throw StrataError(.schemaMismatch, "A snapshot of '\(entity.name)' was built with another schema's entity; build it from this store's schema.", entity: entity.name, identifiers: [identifier])
        }
        return entity
    }

    /// Checks that a snapshot holds one value per attribute and per relationship of `entity`
    /// (`attributes` and `relationships` values); `identifier` is only read for an error.
    ///
    /// - Throws: `typeMismatch`.
    @inline(__always)
    public static func checkCounts(_ attributes: Int, _ relationships: Int, of entity: EntitySchema, identifier: @autoclosure () -> PersistentIdentifier) throws {
        guard attributes == entity.attributes.count, relationships == entity.relationships.count else {
            throw StrataError(.typeMismatch, "A snapshot of '\(entity.name)' has \(attributes) attribute and \(relationships) relationship values; the entity declares \(entity.attributes.count) and \(entity.relationships.count).", entity: entity.name, identifiers: [identifier()])
        }
    }

    /// Checks the number of values, their types and that non-optional attributes have one.
    /// `identifier` is only read for an error, so a caller need not copy it per record.
    ///
    /// - Throws: `typeMismatch` or `missingRequiredValue`.
    public static func checkValues(_ attributes: [Value], _ relationships: [RelationshipValue], of entity: EntitySchema, identifier: @autoclosure () -> PersistentIdentifier) throws {
        try checkCounts(attributes.count, relationships.count, of: entity, identifier: identifier())
        let types = entity.attributeTypes
        let optional = entity.attributeIsOptional
        for i in types.indices {
            let type = attributes[i].type
            if type == nil {
                guard optional[i] else {
                    let a = entity.attributes[i]
                    throw StrataError(.missingRequiredValue, "'\(a.name)' is not optional; give it a value.", entity: entity.name, properties: [a.name], identifiers: [identifier()])
                }
            } else if type != types[i] {
                let a = entity.attributes[i]
                throw StrataError(.typeMismatch, "'\(a.name)' is \(a.type.rawValue) but the snapshot holds \(attributes[i]).", entity: entity.name, properties: [a.name], identifiers: [identifier()])
            }
        }
    }

    /// The error for a relationship value of the wrong shape (to-one given a list or the reverse).
    public static func shapeMismatch(_ entity: EntitySchema, _ relationship: Int, identifier: PersistentIdentifier) -> StrataError {
        let r = entity.relationships[relationship]
        return StrataError(.typeMismatch, "'\(r.name)' is a \(r.isToMany ? "to-many" : "to-one") relationship; the snapshot holds the other shape.", entity: entity.name, properties: [r.name], identifiers: [identifier])
    }

    /// The primary key a reference names: a temporary identifier through `remapping`, a permanent
    /// one directly. Existence is the caller's to check (only new references must exist).
    ///
    /// - Throws: `unknownIdentifier` (temporary not inserted by this save, another store's),
    ///   `typeMismatch` (a record of the wrong entity).
    public static func referenceKey(_ id: PersistentIdentifier, to destination: EntitySchema, from entity: EntitySchema, relationship: Int, storeIdentifier: String, remapping: IdentifierRemapping) throws -> Int64 {
        let property = entity.relationships[relationship].name
        // The permanent identifier the reference stands for: a temporary one's through the remapping.
        let target: PersistentIdentifier
        if id.isTemporary {
            guard let permanent = remapping[id] else {
                throw StrataError(.unknownIdentifier, "'\(property)' refers to \(id), a temporary identifier that this save does not insert. Insert that record in the same save, or use its permanent identifier.", entity: entity.name, properties: [property], identifiers: [id])
            }
            target = permanent
        } else {
            guard id.storeIdentifier == storeIdentifier else {
                throw StrataError(.unknownIdentifier, "'\(property)' refers to \(id), which belongs to another store.", entity: entity.name, properties: [property], identifiers: [id])
            }
            target = id
        }
        guard target.entityName == destination.name else {
            throw StrataError(.typeMismatch, "'\(property)' must point at '\(destination.name)', not at \(id).", entity: entity.name, properties: [property], identifiers: [id])
        }
        return target.primaryKey
    }

    /// The key of a record a save updates or deletes; `exists` says whether the store holds it.
    ///
    /// - Throws: `unknownIdentifier` for a temporary, foreign, unknown or deleted identifier.
    public static func existingKey(_ id: PersistentIdentifier, of entity: EntitySchema, verb: String, storeIdentifier: String, exists: (Int64) throws -> Bool) throws -> Int64 {
        guard !id.isTemporary else {
            throw StrataError(.unknownIdentifier, "Cannot \(verb) \(id): it is temporary, so it was never saved.", entity: entity.name, identifiers: [id])
        }
        guard id.storeIdentifier == storeIdentifier else {
            throw StrataError(.unknownIdentifier, "Cannot \(verb) \(id): it belongs to another store.", entity: entity.name, identifiers: [id])
        }
        guard try exists(id.primaryKey) else {
            throw StrataError(.unknownIdentifier, "Cannot \(verb) \(id): the store holds no such record (never saved, or deleted).", entity: entity.name, identifiers: [id])
        }
        return id.primaryKey
    }

    /// The error for an insert that carries a permanent identifier.
    public static func permanentOnInsert(_ id: PersistentIdentifier, _ entity: EntitySchema) -> StrataError {
        StrataError(.invalidRequest, "Inserted records must carry a temporary identifier; \(id) is permanent. Update it instead.", entity: entity.name, identifiers: [id])
    }

    /// The error for a record inserted or updated twice in one save.
    public static func twice(_ id: PersistentIdentifier, _ entity: EntitySchema, _ verb: String) -> StrataError {
        StrataError(.invalidRequest, "\(id) is \(verb) twice in one save.", entity: entity.name, identifiers: [id])
    }

    /// The rule for a reference a snapshot sends (store contract §1, §3 noAction): a *new* permanent
    /// reference must name a record the store held before the save, while one the sending record
    /// already held stays, even dangling. A temporary reference names an insert of this save
    /// (checked by `referenceKey`), so it passes.
    ///
    /// - Parameter isStoredOrHeld: whether the store held `target` before the save or the sending
    ///   record already held it in this relationship; the backend answers, cheaper question first.
    /// - Throws: `unknownIdentifier` naming the target, then the record that sent it.
    @inlinable
    public static func checkNewReference(_ target: PersistentIdentifier, from entity: EntitySchema, relationship: Int, source: @autoclosure () -> PersistentIdentifier, isStoredOrHeld: () throws -> Bool) throws {
        guard try target.isTemporary || isStoredOrHeld() else {
            throw danglingReference(target, from: entity, relationship: relationship, source: source())
        }
    }

    /// The error for a new reference to a record the store does not hold.
    public static func danglingReference(_ target: PersistentIdentifier, from entity: EntitySchema, relationship: Int, source: PersistentIdentifier) -> StrataError {
        let name = entity.relationships[relationship].name
        return StrataError(.unknownIdentifier, "'\(name)' refers to \(target), which the store does not hold (never saved, or deleted).", entity: entity.name, properties: [name], identifiers: [target, source])
    }
}
