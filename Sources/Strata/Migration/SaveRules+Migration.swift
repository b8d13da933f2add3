/// The errors a migration raises when the data it carries over breaks a rule of the new schema,
/// written once for every backend (the engine's in-memory migration and SQLite's DDL path).
extension SaveRules {
    /// The error for records of `entity` that share values of `properties`, which the new schema
    /// makes unique: the records in key order; the store is left as it was.
    public static func migrationUniqueViolation(_ entity: EntitySchema, properties: [String], records: [PersistentIdentifier]) -> StrataError {
        StrataError(.uniqueConstraintViolation, "Records \(records.map(\.description).joined(separator: " and ")) of '\(entity.name)' share values of (\(properties.joined(separator: ", "))), which the new schema makes unique; the store was not changed. Remove the duplicates in a custom stage before this one.", entity: entity.name, properties: properties, identifiers: records)
    }

    /// Checks the to-many `relationship` of `record` against the new schema's count bounds.
    ///
    /// - Throws: `relationshipCountViolation` naming the record, its count and the bound.
    public static func checkMigratedCount(_ entity: EntitySchema, _ relationship: Relationship, count: Int, record: @autoclosure () -> PersistentIdentifier) throws {
        let bound: String
        if let lo = relationship.minCount, count < lo {
            bound = "requires at least \(lo)"
        } else if let hi = relationship.maxCount, count > hi {
            bound = "allows at most \(hi)"
        } else {
            return
        }
        let id = record()
        throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(id) holds \(count) record(s); the new schema \(bound). Fix the records in a custom stage before this one.", entity: entity.name, properties: [relationship.name], identifiers: [id])
    }
}
