/// Where a store stands in a plan: its recorded version, matched against the plan's versions.
extension ResolvedMigrationPlan {
    /// The version a store with this record is at.
    ///
    /// The recorded version decides: the plan must list it, with the recorded schema. One
    /// exception: a store recorded at `1.0.0` (what a container without a plan records) whose
    /// schema is a version of the plan is at that version (the earliest with the schema), so an
    /// app that adopts a plan after its first release opens its old stores. A store written before
    /// versions were recorded (only a fingerprint) is matched by its schema the same way. A store
    /// at the app's own version whose schema differs from it only in attribute defaults is at that
    /// version (a default changed without a new version identifier, which SwiftData accepts).
    ///
    /// - Throws: `schemaMismatch` naming the store's version and the app's when the store is newer
    ///   than the app, at a version the plan does not list, or holds another schema than its
    ///   version's.
    func storeVersion(_ recorded: RecordedSchema) throws -> Version {
        let matching = versions.first { $0.schema.schema.fingerprint == recorded.fingerprint }
        guard let number = recorded.version else {
            if let matching { return matching }
            throw StrataError(.schemaMismatch, "The store was written by an older Strata that recorded only its schema's fingerprint, which is the schema of no version in migration plan \(planName); this app is at \(current.label). Open it once with the models it was written with.")
        }
        if let listed = version(number), listed.schema.schema.fingerprint == recorded.fingerprint { return listed }
        // The app's own version with a default changed and no new version identifier: SwiftData
        // opens such a store (its version hashes leave defaults out); `MigrationRunner` records
        // the new defaults.
        if number == current.identifier, let stored = recorded.schema, stored.differsOnlyInDefaults(from: current.storeSchema) { return current }
        if number == Schema.Version(1, 0, 0), let matching { return matching }
        if let listed = version(number) {
            throw StrataError(.schemaMismatch, "The store is at version \(number), but its schema is not the schema of \(listed.label) in migration plan \(planName) (other models were written under that version number); this app is at \(current.label).")
        }
        _ = try path(from: number)  // throws the message for a version the plan does not list
        throw StrataError(.schemaMismatch, "The store is at version \(number), which migration plan \(planName) does not list; this app is at \(current.label).")
    }
}

extension ResolvedMigrationPlan.Version {
    /// The version's schema as a store records it: the models' schema with this version.
    var storeSchema: Schema {
        var schema = self.schema.schema
        schema.version = identifier
        return schema
    }
}
