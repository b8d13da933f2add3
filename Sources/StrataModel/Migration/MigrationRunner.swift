@_spi(StrataEngine) import Strata

/// Runs a `SchemaMigrationPlan` on the store a configuration names, before the container opens it.
///
/// Reads the store's recorded schema and version, finds the stages from there to the app's
/// version, infers each stage's schema change (refusing, before anything runs, what a lightweight
/// stage cannot do), and applies them. One lightweight stage is the store's own atomic
/// `migrateStore`; any other path runs first on a copy in memory (`MigrationStaging`), so a thrown
/// error in any stage leaves the store untouched, and then reaches the store stage by stage.
struct MigrationRunner<Configuration: Strata.DataStoreConfiguration> {
    typealias Store = Configuration.Store
    let plan: ResolvedMigrationPlan
    let configuration: Configuration

    /// One stage with its schema change.
    private struct Step {
        let stage: MigrationStage
        let from: ResolvedMigrationPlan.Version
        let to: ResolvedMigrationPlan.Version
        let migration: SchemaMigration
        /// Whether the schema change fills values no store-level inference gives (a model's
        /// non-literal initializer): it then runs on the staged records, never as the store's own
        /// `migrateStore`.
        let fills: Bool
    }

    /// Migrates the store to the plan's current version; does nothing when there is no store yet,
    /// when it is at that version already, or when the backend does not record its schema.
    ///
    /// - Throws: `schemaMismatch` naming both versions (a store version the plan does not list, a
    ///   store newer than the app, no stages to the app's version); `migrationRequired` naming both
    ///   versions, the entity, the property and the stage that must be custom; whatever a stage's
    ///   code throws, or the store's errors. The store is at its old version after any of them.
    func run() throws {
        let recorded: RecordedSchema?
        do {
            recorded = try Store.recordedSchema(configuration)
        } catch let error as StrataError where error.code == .unsupported {
            return
        }
        guard let recorded else { return }
        let start = try plan.storeVersion(recorded)
        let path = try plan.path(from: start.identifier)
        guard !path.isEmpty else {
            // At the app's version, perhaps with other defaults recorded: the store records the
            // app's (a lightweight change of defaults; stored values stay).
            guard recorded.fingerprint != plan.current.storeSchema.fingerprint, let stored = recorded.schema else { return }
            guard !configuration.isReadOnly else {
                throw StrataError(.readOnlyStore, "The store is at \(start.label) with other attribute defaults than this app's; a read-only container cannot record them. Open it for writing once.", file: configuration.name)
            }
            try Store.migrateStore(configuration, SchemaMigration.lightweight(from: stored, to: plan.current.storeSchema))
            return
        }
        guard !configuration.isReadOnly else {
            throw StrataError(.readOnlyStore, "The store is at \(start.label) and this app at \(plan.current.label); a read-only container cannot migrate it. Open it for writing once.", file: configuration.name)
        }
        let steps = try path.map { hop in
            let (migration, fills) = try inferred(hop.stage, from: hop.from, to: hop.to)
            return Step(stage: hop.stage, from: hop.from, to: hop.to, migration: migration, fills: fills)
        }
        if steps.count == 1, case .lightweight = steps[0].stage, !steps[0].fills {
            try Store.migrateStore(configuration, steps[0].migration)
            return
        }
        try runStaged(steps)
    }

    /// The schema change of a stage: the lightweight inference between the two versions, and
    /// whether it fills values (see `Step.fills`). A required attribute the old version lacks (or
    /// held as optional) whose model initializer is not a literal (`= Date.now`) gets the value it
    /// gives in every record, in either kind of stage. A custom stage may also add one without any
    /// default: records start with the type's zero value there, for `didMigrate` to set.
    ///
    /// - Throws: `migrationRequired` naming both versions, the entity and property, and the stage.
    private func inferred(_ stage: MigrationStage, from: ResolvedMigrationPlan.Version, to: ResolvedMigrationPlan.Version) throws -> (SchemaMigration, fills: Bool) {
        let source = from.storeSchema, destination = to.storeSchema
        do {
            let filled: Schema?
            if case .custom = stage {
                filled = try destination.filled(from: source) { to.schema.initialValue($0, $1) ?? Value.zero(of: $1.type) }
            } else {
                filled = try to.schema.filling(destination, from: source)
            }
            guard let filled else { return (try SchemaMigration.lightweight(from: source, to: destination), false) }
            // The records get the filled defaults; the store records the version's own schema.
            let migration = try SchemaMigration.lightweight(from: source, to: filled)
            return (SchemaMigration(source: source, destination: destination, changes: migration.changes, entities: migration.entities), true)
        } catch let error as StrataError where error.code == .migrationRequired {
            let what = [error.entity, error.properties.first].compactMap { $0 }.joined(separator: ".")
            let advice: String
            if case .custom = stage {
                advice = "a custom stage cannot make this change either: add the new property under a new name in one version, copy the values in didMigrate, and remove the old one in the next"
            } else {
                advice = "make the stage from \(from.name) to \(to.name) a MigrationStage.custom and set the values in didMigrate"
            }
            throw StrataError(
                .migrationRequired,
                "Migration plan \(plan.planName), \(stage.kindName) stage from \(from.label) to \(to.label): \(what.isEmpty ? "the change" : what) cannot be migrated without code (\(error.message)); \(advice).",
                entity: error.entity, properties: error.properties)
        }
    }

    /// The staged states of one step's custom code: before and after `willMigrate` and `didMigrate`.
    private typealias StepStates = (willBefore: StoreState?, willAfter: StoreState?, didBefore: StoreState?, didAfter: StoreState?)

    /// Runs every stage on the staged records: `willMigrate`, the schema change, `didMigrate`.
    private func stage(_ steps: [Step], on staging: MigrationStaging) throws -> [StepStates] {
        var states: [StepStates] = []
        for step in steps {
            var entry: StepStates = (nil, nil, nil, nil)
            if case .custom(_, _, let willMigrate, _) = step.stage, let willMigrate {
                entry.willBefore = staging.state
                try run(willMigrate, on: staging, models: step.from)
                entry.willAfter = staging.state
            }
            try staging.migrate(by: step.migration)
            if case .custom(_, _, _, let didMigrate) = step.stage, let didMigrate {
                entry.didBefore = staging.state
                try run(didMigrate, on: staging, models: step.to)
                entry.didAfter = staging.state
            }
            states.append(entry)
        }
        return states
    }

    /// Runs every stage on a copy in memory, then applies the result to the store: in one atomic
    /// step where the backend can take the whole path (`StateMigratable`), else stage by stage.
    private func runStaged(_ steps: [Step]) throws {
        if let atomic = Store.self as? any StateMigratable.Type {
            // The stages run on the records as the backend read them under its writer lock, and
            // their result is written in the same atomic step: a kill leaves the old version or the
            // new one, and no save of another process falls between the read and the write.
            try atomic.migrateStore(anyConfiguration: configuration, from: steps[0].from.storeSchema, to: steps[steps.count - 1].to.storeSchema) { loaded in
                let staging = MigrationStaging(state: loaded)
                _ = try stage(steps, on: staging)
                return staging.state
            }
            return
        }
        // Stage: nothing is written to the store in this block.
        let states: [StepStates]
        let storeIdentifier: String
        let final: StoreState
        do {
            var old = configuration
            old.schema = steps[0].from.storeSchema
            let source = ModelStoreBox(try Store(old))
            storeIdentifier = source.identifier
            let staging = try MigrationStaging(loading: source, schema: old.schema)
            states = try stage(steps, on: staging)
            final = staging.state
        }
        // A store that migrates by copy and swap renumbers its keys, so the saves below could not
        // name its records: the staged result replaces it in one swap (atomic under kill -9 too).
        if let swappable = Store.self as? any CopyAndSwapMigratable.Type {
            try swapIn(final, swappable)
            return
        }
        // Apply (a backend without `StateMigratable`): each save and schema change is atomic in
        // the store, the sequence of a custom stage is not (docs/migrations.md, "Third-party
        // backends that do not adopt StateMigratable").
        var replay = MigrationReplay()
        for (step, entry) in zip(steps, states) {
            if let before = entry.willBefore, let after = entry.willAfter {
                try save(before, after, at: step.from.storeSchema, storeIdentifier: storeIdentifier, &replay)
            }
            try Store.migrateStore(configuration, step.migration)
            if let before = entry.didBefore, let after = entry.didAfter {
                try save(before, after, at: step.to.storeSchema, storeIdentifier: storeIdentifier, &replay)
            }
        }
    }

    /// Writes `state` into a new store beside the old one (`stagingConfiguration`), in one save,
    /// and swaps it in (`replaceStore`): the copy-and-swap path of the store contract, fed with the
    /// staged records instead of the old store's.
    private func swapIn<Swappable: CopyAndSwapMigratable>(_ state: StoreState, _: Swappable.Type) throws {
        let configuration = try Swappable.ownConfiguration(configuration)
        let staging = try Swappable.stagingConfiguration(for: configuration, schema: state.schema)
        Swappable.removeStore(staging)
        do {
            let empty = StoreState(schema: state.schema, storeIdentifier: "")
            let (request, _) = MigrationReplay().request(from: empty, to: state, storeIdentifier: "")
            _ = try ModelStoreBox(try Swappable(staging)).save(request)
        } catch {
            Swappable.removeStore(staging)
            throw error
        }
        try Swappable.replaceStore(configuration, with: staging)
    }

    /// Runs a stage's closure with a context on the staged records and the version's models.
    private func run(_ body: (ModelContext) throws -> Void, on staging: MigrationStaging, models: ResolvedMigrationPlan.Version) throws {
        var at = configuration
        at.schema = models.storeSchema
        let container = ModelContainer(modelSchema: models.schema, opened: OpenedStore(store: staging, configuration: at), configurations: [ModelConfiguration(describing: at)])
        let context = ModelContext(container)
        try body(context)
        // SwiftData saves what the closure left unsaved when the stage ends.
        if context.hasChanges { try context.save() }
    }

    /// Saves the net change from `before` to `after` into the store, opened at `schema`.
    private func save(_ before: StoreState, _ after: StoreState, at schema: Schema, storeIdentifier: String, _ replay: inout MigrationReplay) throws {
        let (request, inserted) = replay.request(from: before, to: after, storeIdentifier: storeIdentifier)
        guard !request.isEmpty else { return }
        var at = configuration
        at.schema = schema
        let store = ModelStoreBox(try Store(at))
        replay.record(inserted, try store.save(request))
    }
}
