/// The check every store makes when it opens: does the recorded schema fit the one it is opened with?
extension RecordedSchema {
    /// What an open of a store recorded this way, with `schema`, finds.
    public enum OpeningOutcome: Sendable, Equatable {
        /// The record is the schema's: nothing to write.
        case current
        /// Same data (equal fingerprints), but the record must be rewritten by a writer: a legacy
        /// record without the declaration, or an older version than the schema's.
        case rewriteRecord
    }

    /// Checks a store's record against the schema it is opened with.
    ///
    /// Equal fingerprints open the data as it is. A record of a newer version than `schema`'s is
    /// kept as it is (the data is the same; writing never lowers a version).
    ///
    /// - Throws: `schemaMismatch` when the fingerprints differ, naming both versions and listing
    ///   what differs (when the store recorded its declaration or description), and saying how
    ///   to migrate; the store is left untouched.
    public func check(opening schema: Schema, file: String? = nil) throws -> OpeningOutcome {
        guard fingerprint == schema.fingerprint else { throw mismatch(opening: schema, file: file) }
        if isLegacy { return .rewriteRecord }
        if let version, version >= schema.version { return .current }
        return .rewriteRecord
    }

    /// The `schemaMismatch` of opening this store with `schema`: both versions, the differences,
    /// and what to do.
    public func mismatch(opening schema: Schema, file: String? = nil, reason: String? = nil) -> StrataError {
        var message = "The store holds data of schema version \(version?.description ?? "(unrecorded)") (fingerprint \(fingerprint)); it was opened with version \(schema.version) (fingerprint \(schema.fingerprint))"
        if let version, version > schema.version {
            message += ", an older version than the store's: the store was written by a newer version of the application"
        }
        if let canonicalDescription {
            let differences = schema.differences(fromStored: canonicalDescription)
            if !differences.isEmpty { message += ". Differences: " + differences.joined(separator: "; ") }
        }
        if let reason { message += ". " + reason }
        message += ". Open it with the schema it was written with, or migrate it (a lightweight change migrates on open through `openMigrating`; others need a migration plan); the store was left untouched."
        return StrataError(.schemaMismatch, message, file: file)
    }

    /// The `schemaMismatch` of a save by a store opened with `schema` before another process
    /// migrated the store to this record: both versions named, nothing of the save written.
    public func savedAfterMigration(opening schema: Schema, file: String? = nil) -> StrataError {
        mismatch(opening: schema, file: file, reason: "Another process migrated the store after this one opened it, so this save was refused and nothing of it was written; open the store again with the new version of the app")
    }
}
