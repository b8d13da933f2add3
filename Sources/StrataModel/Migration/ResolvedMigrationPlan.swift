/// A `SchemaMigrationPlan` checked once and ready to run: each version's schema, the version the
/// container's models are, and the stages leaving each version.
///
/// Checked before the store is touched, so a plan that cannot work fails the same way on every
/// store: two versions with one version identifier, a stage naming a version the plan does not
/// list, two stages leaving one version, models that are none of the plan's versions.
struct ResolvedMigrationPlan {
    /// One version of the plan.
    struct Version {
        let type: any VersionedSchema.Type
        let identifier: Schema.Version
        let schema: ModelSchema
        /// `SchemaV1` (the type's own name), for messages.
        var name: String { String(describing: type) }
        /// `SchemaV1 (1.0.0)`, for messages.
        var label: String { "\(name) (\(identifier))" }
    }

    /// The plan as the app declared it.
    let type: any SchemaMigrationPlan.Type
    let planName: String
    /// The plan's versions, in its order.
    let versions: [Version]
    /// The version the container's models are.
    let current: Version
    /// Per version identifier, the stage leaving it.
    private let stagesFrom: [Schema.Version: MigrationStage]

    /// Checks `plan` against the container's models.
    ///
    /// - Throws: `invalidSchema` naming the plan and what is wrong with it.
    init(_ plan: any SchemaMigrationPlan.Type, models: ModelSchema) throws {
        let planName = String(describing: plan)
        self.type = plan
        self.planName = planName
        func refuse(_ message: String) -> StrataError { StrataError(.invalidSchema, "Migration plan \(planName): \(message)") }
        var versions: [Version] = []
        for type in plan.schemas {
            let version = Version(type: type, identifier: type.versionIdentifier, schema: try ModelSchema(type.models))
            if let same = versions.first(where: { $0.identifier == version.identifier }) {
                throw refuse("\(same.name) and \(version.name) both have version \(version.identifier); each version needs its own versionIdentifier.")
            }
            versions.append(version)
        }
        guard !versions.isEmpty else { throw refuse("schemas is empty; list every version of the schema, oldest first.") }
        func listed(_ type: any VersionedSchema.Type, in stage: MigrationStage) throws -> Version {
            guard let version = versions.first(where: { $0.type == type }) else {
                throw refuse("a \(stage.kindName) stage names \(String(describing: type)), which schemas does not list.")
            }
            return version
        }
        var stagesFrom: [Schema.Version: MigrationStage] = [:]
        for stage in plan.stages {
            let from = try listed(stage.fromVersion, in: stage), to = try listed(stage.toVersion, in: stage)
            guard from.identifier != to.identifier else { throw refuse("a \(stage.kindName) stage goes from \(from.label) to itself.") }
            if let other = stagesFrom[from.identifier] {
                let otherTo = try listed(other.toVersion, in: other)
                throw refuse("two stages leave \(from.label) (to \(otherTo.label) and to \(to.label)); a store at one version must have one way forward.")
            }
            stagesFrom[from.identifier] = stage
        }
        self.versions = versions
        self.stagesFrom = stagesFrom
        // The current version: the last one whose models include the container's types (given
        // directly or through typealiases), else the one whose schema is theirs.
        let given = Set(models.infos.values.map { ObjectIdentifier($0.type) })
        let byTypes = versions.last { given.isSubset(of: Set($0.schema.infos.values.map { ObjectIdentifier($0.type) })) }
        guard let current = byTypes ?? versions.last(where: { $0.schema.schema == models.schema }) else {
            let names = models.infos.keys.sorted().joined(separator: ", ")
            throw refuse("the container's models (\(names)) are not the models of any version in schemas; add their VersionedSchema to the plan.")
        }
        self.current = current
    }

    /// The version with this identifier, if the plan lists it.
    func version(_ identifier: Schema.Version) -> Version? { versions.first { $0.identifier == identifier } }

    /// The stages from `start` to the current version, in order (none when the store is current).
    ///
    /// - Throws: `schemaMismatch` naming both versions when the store's version is not in the plan
    ///   (newer than the app, or unknown), or when no chain of stages leads from it to the current one.
    func path(from start: Schema.Version) throws -> [(stage: MigrationStage, from: Version, to: Version)] {
        guard let first = version(start) else {
            let newest = versions.map(\.identifier).max() ?? current.identifier
            if start > newest {
                throw StrataError(.schemaMismatch, "The store is at version \(start), newer than this app's \(current.label); migration plan \(planName) knows versions up to \(newest). Open it with a newer version of the app.")
            }
            throw StrataError(.schemaMismatch, "The store is at version \(start), which migration plan \(planName) does not list (it lists \(versions.map { "\($0.identifier)" }.joined(separator: ", "))); this app is at \(current.label). Add that version and a stage from it to the plan.")
        }
        if let at = versions.firstIndex(where: { $0.identifier == start }), let app = versions.firstIndex(where: { $0.identifier == current.identifier }), at > app {
            throw StrataError(.schemaMismatch, "The store is at \(first.label), newer than this app's \(current.label) in migration plan \(planName). Open it with a newer version of the app.")
        }
        var steps: [(stage: MigrationStage, from: Version, to: Version)] = []
        var at = first
        var visited: Set<Schema.Version> = [at.identifier]
        while at.identifier != current.identifier {
            guard let stage = stagesFrom[at.identifier], let next = versions.first(where: { $0.type == stage.toVersion }) else {
                throw StrataError(.schemaMismatch, "The store is at version \(first.label) and this app at \(current.label), but migration plan \(planName) has no stage from \(at.label); add one.")
            }
            guard visited.insert(next.identifier).inserted else {
                throw StrataError(.invalidSchema, "Migration plan \(planName): the stages from \(first.label) go round in a circle at \(next.label) and never reach \(current.label).")
            }
            steps.append((stage, at, next))
            at = next
        }
        return steps
    }
}
