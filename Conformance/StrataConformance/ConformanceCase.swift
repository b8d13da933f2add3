import Strata

/// One check of the store contract, registered as data in `ConformanceSuite.cases`.
///
/// A case has a stable `id` (`"unique.collision-with-stored"`), a category, whether it is required
/// (the contract's core, which can never be skipped), and the capabilities it needs. Its body runs
/// against a fresh store through a type-erased harness, so one registry serves every backend.
public struct ConformanceCase: Sendable, Identifiable, Hashable, CustomStringConvertible {
    /// Stable identifier, `category.name`.
    public let id: String
    /// The group the case belongs to.
    public let category: ConformanceCategory
    /// One sentence: what the contract promises here (the rule the case checks).
    public let summary: String
    /// The section of docs/store-contract.md that states the rule, e.g. `§4 Unique constraints`.
    public let section: String

    /// The rule as a failure message quotes it: the sentence and where the contract states it.
    public var rule: String { "\(summary) (docs/store-contract.md \(section))" }
    /// Capabilities the case needs. A missing one skips an optional case and fails a required one,
    /// unless it is one of `declarable`.
    public let requires: StoreCapabilities
    /// Capabilities by whose absence a backend may declare a required case unsupported (the value
    /// type it checks, such as `largeValues`): the case is then skipped, and the report names the
    /// capability. Empty for most cases.
    public let declarable: StoreCapabilities
    let body: @Sendable (CaseContext) throws -> Void

    /// Whether the case belongs to the required contract (identifiers, round-trips, relationships,
    /// delete rules, unique constraints, atomicity, fetch, partial updates); required cases cannot be
    /// skipped, except through a `declarable` capability.
    public var isRequired: Bool { category.isRequired }

    init(_ id: String, _ category: ConformanceCategory, requires: StoreCapabilities = [], declarable: StoreCapabilities = [], section: String? = nil, _ summary: String, body: @escaping @Sendable (CaseContext) throws -> Void) {
        self.id = category.rawValue + "." + id
        self.category = category
        self.summary = summary
        self.section = section ?? category.section
        self.requires = requires
        self.declarable = declarable.intersection(requires)
        self.body = body
    }

    /// The id, which is how test runners show each case.
    public var description: String { id }
    /// Equal by id.
    public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}


/// The groups of the suite, in report order.
public enum ConformanceCategory: String, Sendable, Hashable, Codable, CaseIterable {
    /// Identifier assignment, remapping, stability and rejection.
    case identifiers
    /// Every attribute type with edge values, before and after reopen (required: a value type may be
    /// declared unsupported only through a capability, such as `largeValues`).
    case roundTrip
    /// Data, counters and graphs survive reopen.
    case persistence
    /// Inverses agree, order is kept, required and bounded relationships are enforced.
    case relationships
    /// Cascade, nullify, deny and noAction, multi-level and cyclic.
    case deleteRules
    /// Single and composite unique constraints, never overwriting.
    case unique
    /// A failed save changes nothing.
    case atomicity
    /// Predicates, sort order, ties, windows, counts, identifiers.
    case fetch
    /// Clear errors for unknown names, wrong types, dangling and foreign references, schema changes.
    case badInput
    /// Concurrent saves and reads on one store.
    case concurrency
    /// Updates that list their properties write only those; the opt-in conflict check.
    case partialUpdates
    /// Schema changes applied atomically by `migrateStore`; refusals change nothing.
    case migration
    /// Persisted history: one transaction per committed save, in the same commit, with tokens that
    /// compare and survive reopen (optional: needs the `history` capability).
    case history
    /// Saves that choose the key of their first insert of an entity, at or above its next key
    /// (optional: needs the `chosenKeys` capability; what `StoreCopy` keeps keys across gaps with).
    case chosenKeys

    /// The section of docs/store-contract.md whose rules the category's cases check by default.
    public var section: String {
        switch self {
        case .identifiers: "§1 Identifiers"
        case .relationships: "§2 Relationships"
        case .deleteRules: "§3 Delete rules"
        case .unique: "§4 Unique constraints"
        case .atomicity: "§5 Atomicity"
        case .fetch: "§6 Fetch"
        case .badInput: "§7 Bad input"
        case .roundTrip, .persistence: "§8 Round-trip and persistence"
        case .concurrency: "§9 Concurrency"
        case .partialUpdates: "§6a Partial updates"
        case .migration: "§10 Migration"
        case .history: "§11 History"
        case .chosenKeys: "§1 Identifiers"
        }
    }

    /// Whether the category is part of the required contract (section 3 of the store contract).
    public var isRequired: Bool {
        switch self {
        case .identifiers, .roundTrip, .relationships, .deleteRules, .unique, .atomicity, .fetch, .partialUpdates, .migration: true
        case .persistence, .badInput, .concurrency, .history, .chosenKeys: false
        }
    }
}

/// How one case ended.
public enum ConformanceOutcome: Sendable, Hashable {
    /// The backend kept the promise.
    case passed
    /// It did not; the message says what was expected and what happened.
    case failed(String)
    /// The case needs a capability the backend does not declare; the reason names it.
    case skipped(String)

    /// `passed`, `failed` or `skipped`.
    public var label: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        }
    }
}

/// The structured result of one case.
public struct ConformanceResult: Sendable, Hashable {
    /// The case id.
    public let caseID: String
    /// The case's category.
    public let category: ConformanceCategory
    /// Whether the case is required.
    public let isRequired: Bool
    /// How it ended.
    public let outcome: ConformanceOutcome
    /// How long it ran, in seconds.
    public let duration: Double
}

/// Makes the cases of one category, so each case file declares its cases as `c("id", "summary") { … }`.
struct CaseMaker {
    let category: ConformanceCategory
    let baseline: StoreCapabilities

    func callAsFunction(_ id: String, requires: StoreCapabilities = [], section: String? = nil, _ summary: String, _ body: @escaping @Sendable (CaseContext) throws -> Void) -> ConformanceCase {
        ConformanceCase(id, category, requires: baseline.union(requires), section: section, summary, body: body)
    }
}

extension ConformanceCategory {
    /// A maker of this category's cases, each needing at least `capabilities`.
    func cases(requiring capabilities: StoreCapabilities) -> CaseMaker { CaseMaker(category: self, baseline: capabilities) }
}
