import Foundation

extension CodingUserInfoKey {
    /// Where a decoder finds the `Schema` that `DefaultSnapshot` needs to resolve its entity.
    public static let strataSchema = CodingUserInfoKey(rawValue: "strata.schema")!
}

/// Encodes as `{ "id": uri, "attributes": [...], "relationships": [...] }`; decoding needs the schema
/// in `decoder.userInfo[.strataSchema]` and checks the shape against the entity.
extension DefaultSnapshot: Codable {
    private enum Keys: String, CodingKey { case id, attributes, relationships }

    /// Encodes identifier (URI form) and values.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(persistentIdentifier, forKey: .id)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(relationships, forKey: .relationships)
    }

    /// Decodes a snapshot; throws if the schema is missing from `userInfo` or the shape is wrong.
    public init(from decoder: Decoder) throws {
        guard let schema = decoder.userInfo[.strataSchema] as? Schema else {
            throw StrataError(.unsupported, "Decoding a DefaultSnapshot needs the schema in userInfo[.strataSchema].")
        }
        let c = try decoder.container(keyedBy: Keys.self)
        let id = try c.decode(PersistentIdentifier.self, forKey: .id)
        let entity = try schema.requireEntity(id.entityName)
        let attributes = try c.decode([Value].self, forKey: .attributes)
        let relationships = try c.decode([RelationshipValue].self, forKey: .relationships)
        guard attributes.count == entity.attributes.count, relationships.count == entity.relationships.count else {
            throw StrataError(.typeMismatch, "A snapshot of '\(entity.name)' has the wrong number of values.", entity: entity.name)
        }
        self.init(entity: entity, persistentIdentifier: id, attributes: attributes, relationships: relationships)
    }
}
