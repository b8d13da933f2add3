import Foundation
import Strata

/// A backend taking part in a differential run: a name and how to open its store at a location.
public struct DifferentialBackend: Sendable {
    /// The name reports use.
    public let name: String
    let open: @Sendable (URL, Schema) throws -> any SuiteStore
    let destroy: @Sendable (URL) -> Void

    /// A backend opened through the same factory its conformance run uses.
    public init<Store: DataStore>(name: String, factory: StoreFactory<Store>) {
        self.name = name
        self.open = { dir, schema in StoreBox(try Store(factory.configuration(dir, schema))) }
        self.destroy = factory.destroy
    }
}

/// Where backends first disagreed in a run.
public struct Divergence: Error, CustomStringConvertible, Sendable {
    /// The seed that replays the run.
    public let seed: UInt64
    /// The index of the operation that diverged.
    public let step: Int
    /// What the operation was.
    public let operation: String
    /// What each backend did, by backend name.
    public let outcomes: [(backend: String, outcome: String)]

    /// A report naming the seed, the step, the operation and each backend's outcome.
    public var description: String {
        var lines = ["Backends diverged at seed \(seed), step \(step): \(operation)"]
        for (backend, outcome) in outcomes { lines.append("  \(backend): \(outcome)") }
        return lines.joined(separator: "\n")
    }
}

/// What a differential run did, so a run that compares only failures is noticed.
public struct DifferentialStats: Sendable {
    /// Saves every backend accepted.
    public var savesAccepted = 0
    /// Saves every backend rejected (with the same error).
    public var savesRejected = 0
    /// Fetches compared.
    public var fetches = 0
    /// Reopens compared.
    public var reopens = 0

    /// Nothing counted yet.
    public init() {}

    init(savesAccepted: Int, savesRejected: Int, fetches: Int, reopens: Int) {
        (self.savesAccepted, self.savesRejected, self.fetches, self.reopens) = (savesAccepted, savesRejected, fetches, reopens)
    }

    /// `accepted / rejected saves, fetches, reopens`.
    public var summary: String { "\(savesAccepted) saves accepted, \(savesRejected) rejected, \(fetches) fetches, \(reopens) reopens" }

    /// Adds another run's counts.
    public static func + (a: Self, b: Self) -> Self {
        Self(savesAccepted: a.savesAccepted + b.savesAccepted, savesRejected: a.savesRejected + b.savesRejected, fetches: a.fetches + b.fetches, reopens: a.reopens + b.reopens)
    }
}

/// Differential testing: one seeded sequence of random operations run in lockstep on several
/// backends over `DifferentialSchema`, comparing every outcome — error codes and the records they
/// name, identifiers by position, results in order, result snapshots, everything after reopen.
/// Any difference is a bug in a backend or an ambiguity in the contract. Every run includes
/// `DifferentialOracle`, a plain implementation of the save contract sharing no code with the
/// engine or the rule home, so a bug in the code every backend shares is a divergence too.
///
/// It needs only the core, so a third party runs its backend against the built-in ones:
/// `try DifferentialTest.run(seed: 1, operations: 200, backends: [mine, memory])`.
public enum DifferentialTest {
    /// Runs one seed; throws the first `Divergence`, returns what was compared.
    @discardableResult
    public static func run(seed: UInt64, operations: Int, backends: [DifferentialBackend]) throws -> DifferentialStats {
        var stats = DifferentialStats()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-difftest-\(UUID().uuidString)")
        let dirs = backends.indices.map { root.appendingPathComponent("b\($0)") }
        for dir in dirs { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        // The oracle takes part in every run, after the backends: an in-memory store it keeps across reopens.
        let oracle = DifferentialOracle(schema: DifferentialSchema.schema)
        let names = backends.map(\.name) + ["oracle"]
        var stores: [any SuiteStore] = try backends.indices.map { try backends[$0].open(dirs[$0], DifferentialSchema.schema) } + [oracle]
        defer {
            stores = []
            for (b, dir) in zip(backends, dirs) { b.destroy(dir) }
            try? FileManager.default.removeItem(at: root)
        }
        var generator = DifferentialGenerator(rng: SeededGenerator(state: seed))
        var handles: [[PersistentIdentifier]] = []  // per record position, per participant
        for step in 0..<operations {
            let operation = generator.next()
            var outcomes: [(backend: String, outcome: String)] = []
            var described = ""
            switch operation {
            case .reopen:
                described = "reopen"
                stores = []
                stores = try backends.indices.map { try backends[$0].open(dirs[$0], DifferentialSchema.schema) } + [oracle]
                outcomes = try stores.indices.map { (names[$0], try dump(stores[$0])) }
                stats.reopens += 1
            case .fetch(let plan):
                described = "fetch \(plan.entity) where \(plan.predicate.map { describe($0) } ?? "-") sort \(plan.sortBy.map { "\($0.path)\($0.order == .descending ? "↓" : "↑")" }) limit \(plan.limit.map(String.init) ?? "nil") offset \(plan.offset)"
                for b in stores.indices {
                    let d = descriptor(plan, handles.map { $0[b] })
                    // The oracle answers only whole-entity fetches (no predicate but identifierIn, no sort, no window).
                    if stores[b] === oracle && !DifferentialOracle.models(d) { continue }
                    outcomes.append((names[b], fetch(d, on: stores[b])))
                }
                stats.fetches += 1
            case .save(let inserted, let updated, let deleted):
                described = "save inserted \(inserted.map(describe)) updated \(updated.map(describe)) deleted \(deleted)"
                var results: [SuiteSaveResult?] = []
                // Temporary identifiers are made once, so every backend gets the same ones.
                let temporaries = inserted.map { PersistentIdentifier.temporary(entity: $0.entity) }
                for b in stores.indices {
                    let (outcome, result) = save(inserted, updated, deleted, temporaries, on: stores[b], ids: handles.map { $0[b] })
                    outcomes.append((names[b], outcome))
                    results.append(result)
                }
                if results.allSatisfy({ $0 == nil }) { stats.savesRejected += 1 }
                if Set(outcomes.map(\.outcome)).count == 1, results.allSatisfy({ $0 != nil }) {
                    stats.savesAccepted += 1
                    for record in inserted.indices {
                        let ids = results.map { $0!.remapped.permanentIdentifiers[record] }
                        handles.append(ids)
                        generator.entities.append(inserted[record].entity)
                    }
                }
            }
            if Set(outcomes.map(\.outcome)).count > 1 {
                throw Divergence(seed: seed, step: step, operation: described, outcomes: outcomes)
            }
        }
        return stats
    }

    // MARK: Operations

    private static func resolve(_ ref: RecordRef, _ ids: [PersistentIdentifier], _ temporaries: [PersistentIdentifier]) -> PersistentIdentifier {
        switch ref {
        case .existing(let n): ids[n]
        case .new(let n): temporaries[n]
        }
    }

    /// Saves the planned request on one store; returns the outcome as text and the result.
    private static func save(_ inserted: [PlannedRecord], _ updated: [PlannedRecord], _ deleted: [RecordRef], _ temporaries: [PersistentIdentifier], on store: any SuiteStore, ids: [PersistentIdentifier]) -> (String, SuiteSaveResult?) {
        let schema = DifferentialSchema.schema
        let positions = Dictionary(uniqueKeysWithValues: temporaries.enumerated().map { ($1, $0) })
        func key(_ id: PersistentIdentifier) -> String { id.isTemporary ? "new#\(positions[id].map(String.init) ?? "?")" : DifferentialTest.key(id) }
        func record(_ plan: PlannedRecord, id: PersistentIdentifier, base: SuiteRecord?) -> SuiteRecord {
            let entity = schema.entity(named: plan.entity)!
            var r = base ?? SuiteRecord(id: id, entity: entity, attributes: entity.attributes.map { $0.defaultValue ?? .null }, relationships: entity.relationships.map(RelationshipValue.empty(for:)))
            r.id = id
            for (name, value) in plan.values { r[name] = value }
            for (name, link) in plan.links {
                switch link {
                case .one(let target): r.set(name, to: target.map { resolve($0, ids, temporaries) })
                case .many(let targets): r.set(name, to: targets.map { resolve($0, ids, temporaries) })
                }
            }
            return r
        }
        do {
            let inserts = inserted.indices.map { record(inserted[$0], id: temporaries[$0], base: nil) }
            let updates = try updated.map { plan -> SuiteRecord in
                let id = resolve(plan.ref!, ids, temporaries)
                let stored = id.isTemporary ? nil : try store.fetch(FetchDescriptor(entity: id.entityName, predicate: .identifierIn([id]))).first
                return record(plan, id: id, base: stored)
            }
            let deletes = deleted.map { ref -> SuiteRecord in
                let id = resolve(ref, ids, temporaries)
                let entity = schema.entity(named: id.entityName)!
                return SuiteRecord(id: id, entity: entity, attributes: [], relationships: [])
            }
            let result = try store.save(inserted: inserts, updated: updates, deleted: deletes)
            let remapped = temporaries.map { result.remapped[$0].map(key) ?? "?" }
            let gone = result.deleted.map(key).sorted()
            let changed = result.changed.values.map { canonical($0) }.sorted()
            return ("saved keys \(remapped) deleted \(gone) changed \(changed)", result)
        } catch let error as StrataError {
            return ("\(error.code.rawValue) entity \(error.entity ?? "-") properties \(error.properties) naming \(error.identifiers.map(key))", nil)
        } catch {
            return ("\(type(of: error)): \(error)", nil)
        }
    }

    private static func descriptor(_ plan: FetchPlan, _ ids: [PersistentIdentifier]) -> FetchDescriptor {
        FetchDescriptor(entity: plan.entity, predicate: plan.predicate.map { predicate($0, ids) }, sortBy: plan.sortBy, fetchLimit: plan.limit, fetchOffset: plan.offset)
    }

    private static func fetch(_ descriptor: FetchDescriptor, on store: any SuiteStore) -> String {
        do {
            let records = try store.fetch(descriptor).map(canonical)
            let keys = try store.fetchIdentifiers(descriptor).map(key)
            let count = try store.fetchCount(descriptor)
            return "\(records) identifiers \(keys) count \(count)"
        } catch let error as StrataError {
            return "\(error.code.rawValue) properties \(error.properties)"
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    private static func predicate(_ p: PlannedPredicate, _ ids: [PersistentIdentifier]) -> FetchPredicate {
        let none: [PersistentIdentifier] = []
        switch p {
        case .plain(let f): return f
        case .targetIs(let path, let ref): return .targetIs(PropertyPath(stringLiteral: path), ref.map { resolve($0, ids, none) })
        case .contains(let path, let ref): return .contains(PropertyPath(stringLiteral: path), resolve(ref, ids, none))
        case .identifierIn(let refs): return .identifierIn(refs.map { resolve($0, ids, none) })
        case .and(let parts): return .and(parts.map { predicate($0, ids) })
        case .or(let parts): return .or(parts.map { predicate($0, ids) })
        case .not(let inner): return .not(predicate(inner, ids))
        }
    }

    /// Every record of every entity in key order, as text.
    static func dump(_ store: any SuiteStore) throws -> String {
        try DifferentialSchema.schema.entities.map { e in
            try store.fetch(FetchDescriptor(entity: e.name)).map(canonical).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    // MARK: Canonical text

    /// `Entity/p<key>` (or the temporary identifier): identifiers compared by position, not store.
    static func key(_ id: PersistentIdentifier) -> String {
        id.isTemporary ? "new" : "\(id.entityName)/p\(id.primaryKey)"
    }

    /// A value with doubles by bit pattern, so −0, NaN payloads and subnormals are told apart.
    static func canonical(_ value: Value) -> String {
        switch value {
        case .double(let d): "d\(d.bitPattern)"
        case .date(let d): "t\(d.timeIntervalSinceReferenceDate.bitPattern)"
        default: "\(value)"
        }
    }

    /// A record with its identifier by position and unordered lists sorted.
    static func canonical(_ record: SuiteRecord) -> String {
        let n = record.normalized
        let values = n.attributes.map(canonical).joined(separator: ",")
        let links = n.relationships.map { "[" + $0.targets.map(key).joined(separator: ",") + "]" }.joined(separator: ",")
        return "\(key(n.id)){\(values)|\(links)}"
    }

    private static func describe(_ p: PlannedRecord) -> String {
        "\(p.entity)\(p.ref.map { "@\($0)" } ?? "") \(p.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }) \(p.links.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
    }

    private static func describe(_ p: PlannedPredicate) -> String {
        switch p {
        case .plain(let f): "\(f)"
        case .targetIs(let path, let ref): "\(path) is \(ref.map { "\($0)" } ?? "nil")"
        case .contains(let path, let ref): "\(path) contains \(ref)"
        case .identifierIn(let refs): "id in \(refs)"
        case .and(let parts): "(" + parts.map(describe).joined(separator: " && ") + ")"
        case .or(let parts): "(" + parts.map(describe).joined(separator: " || ") + ")"
        case .not(let inner): "!" + describe(inner)
        }
    }
}
