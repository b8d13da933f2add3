extension Schema {
    /// The schema of one version of the app's models, at that version (SwiftData's
    /// `Schema(versionedSchema:)`): `Schema(versionedSchema: SchemaV2.self)`.
    ///
    /// Like `Schema(_:version:)`, it does not throw: models that do not form a valid schema give a
    /// placeholder that every container refuses with the reason.
    public init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }
}
