/// Which properties an update writes, and optionally what the writer last saw in them.
///
/// Without it, an updated snapshot replaces the whole stored record, so two clients that loaded the
/// same record and changed different properties lose one change: the later save writes the other's
/// property back from its stale copy. With it (`SaveRequest.updatedProperties`), the store writes
/// only the listed properties and keeps every other one as stored at the moment of the save.
///
/// `expectedAttributes` / `expectedRelationships` turn on the conflict check: the store compares
/// the stored values of the listed properties with what the writer saw and fails the save with
/// `writeConflict` if another save changed them in between. Without them, the later save wins.
///
/// ```swift
/// var request = SaveRequest(updated: [renamed])
/// request.updatedProperties[renamed.persistentIdentifier] = UpdatedProperties(attributes: [nameIndex])
/// ```
public struct UpdatedProperties: Sendable, Hashable {
    /// Indexes in `EntitySchema.attributes` of the attributes written.
    public var attributes: [Int]
    /// Indexes in `EntitySchema.relationships` of the relationships written.
    public var relationships: [Int]
    /// What the writer last saw in each of `attributes`, same positions; `nil`: no conflict check.
    public var expectedAttributes: [Value]?
    /// What the writer last saw in each of `relationships`, same positions; `nil`: no conflict check.
    public var expectedRelationships: [RelationshipValue]?

    /// Lists the written properties; the later save wins a same-property conflict.
    public init(attributes: [Int] = [], relationships: [Int] = []) {
        self.attributes = attributes
        self.relationships = relationships
    }

    /// Lists the written properties with what the writer saw in them, so a save fails with
    /// `writeConflict` if the store holds something else by then.
    public init(attributes: [Int] = [], expecting expectedAttributes: [Value], relationships: [Int] = [], expecting expectedRelationships: [RelationshipValue]) {
        self.attributes = attributes
        self.relationships = relationships
        self.expectedAttributes = expectedAttributes
        self.expectedRelationships = expectedRelationships
    }

    /// Whether the conflict check is on.
    public var checksConflicts: Bool { expectedAttributes != nil || expectedRelationships != nil }

    /// The values a partial update writes: the sent values of the listed properties over the stored
    /// ones. Called by backends after they resolved the sent and stored relationships to keys;
    /// `resolve` turns an expected relationship value into keys the same way.
    ///
    /// - Throws: `invalidRequest` for an index out of range or mismatched expectations;
    ///   `writeConflict` when the check is on and a listed property's stored value differs from the
    ///   expected one.
    @_spi(StrataEngine) public func merged(
        attributes sent: [Value], links sentLinks: [Link], storedAttributes: [Value], storedLinks: [Link],
        entity: EntitySchema, identifier: PersistentIdentifier, resolve: (RelationshipValue, Int) throws -> Link
    ) throws -> (attributes: [Value], links: [Link]) {
        try validate(entity, identifier)
        if let expected = expectedAttributes {
            for (n, i) in attributes.enumerated() where storedAttributes[i] != expected[n] {
                throw conflict(entity.attributes[i].name, entity, identifier, stored: "\(storedAttributes[i])", expected: "\(expected[n])")
            }
        }
        if let expected = expectedRelationships {
            for (n, r) in relationships.enumerated() {
                let seen = try resolve(expected[n], r)
                let unordered = entity.relationships[r].isToMany && !entity.relationships[r].isOrdered
                let same = unordered ? Set(seen.keys) == Set(storedLinks[r].keys) : seen == storedLinks[r]
                if !same { throw conflict(entity.relationships[r].name, entity, identifier, stored: "\(storedLinks[r].keys.count) target(s)", expected: "\(seen.keys.count)") }
            }
        }
        var values = storedAttributes
        for i in attributes { values[i] = sent[i] }
        var links = storedLinks
        for r in relationships { links[r] = sentLinks[r] }
        return (values, links)
    }

    private func validate(_ entity: EntitySchema, _ identifier: PersistentIdentifier) throws {
        let attributesValid = attributes.allSatisfy { entity.attributes.indices.contains($0) }
        let relationshipsValid = relationships.allSatisfy { entity.relationships.indices.contains($0) }
        let expectationsValid = (expectedAttributes.map { $0.count == attributes.count } ?? true)
            && (expectedRelationships.map { $0.count == relationships.count } ?? true)
        guard attributesValid, relationshipsValid, expectationsValid else {
            throw StrataError(.invalidRequest, "The updated properties of \(identifier) name a property '\(entity.name)' does not have, or list expectations that do not match them one to one.", entity: entity.name, identifiers: [identifier])
        }
    }

    private func conflict(_ property: String, _ entity: EntitySchema, _ identifier: PersistentIdentifier, stored: String, expected: String) -> StrataError {
        StrataError(.writeConflict, "'\(property)' of \(identifier) was changed by another save since it was read (stored: \(stored), expected: \(expected)). Refetch the record and apply the change again, or save without the conflict check to overwrite.", entity: entity.name, properties: [property], identifiers: [identifier])
    }
}

extension UpdatedProperties {
    /// The properties by name.
    ///
    /// - Throws: `unknownProperty` for a name the entity lacks.
    public init(_ names: [String], of entity: EntitySchema) throws {
        self.init()
        for name in names {
            switch entity.property(named: name) {
            case .attribute(let i)?: attributes.append(i)
            case .relationship(let r)?: relationships.append(r)
            case nil: throw unknownProperty(name, in: entity)
            }
        }
    }
}
