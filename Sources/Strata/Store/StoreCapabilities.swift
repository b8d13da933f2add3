/// What a backend supports beyond the required contract.
///
/// The conformance suite reports a case that needs a missing capability as *skipped, with the
/// reason*, never as passed. Cases of the required contract (identifiers, relationships, delete
/// rules, unique constraints, atomicity, fetch order) cannot be skipped: a backend that lacks what they
/// need fails them.
public struct StoreCapabilities: OptionSet, Sendable, Hashable, Codable {
    /// The bits.
    public let rawValue: Int
    /// Makes a set from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A store opened again at the same location sees what was saved.
    public static let persistence = StoreCapabilities(rawValue: 1 << 0)
    /// Ordered to-many relationships keep their order.
    public static let orderedRelationships = StoreCapabilities(rawValue: 1 << 1)
    /// Many-to-many relationships.
    public static let manyToMany = StoreCapabilities(rawValue: 1 << 2)
    /// Attribute values of several megabytes.
    public static let largeValues = StoreCapabilities(rawValue: 1 << 3)
    /// Safe to share one store object between threads.
    public static let concurrentAccess = StoreCapabilities(rawValue: 1 << 4)
    /// Predicates and sorts evaluated inside the storage engine rather than in memory.
    public static let queryPushdown = StoreCapabilities(rawValue: 1 << 5)
    /// Declared indexes are built and used.
    public static let indexes = StoreCapabilities(rawValue: 1 << 6)
    /// Persisted history when the configuration opts in (`HistoryRecordingStore`).
    public static let history = StoreCapabilities(rawValue: 1 << 7)
    /// A save may choose the key of its first insert of an entity (`SaveRequest.firstKeys`), at or
    /// above the entity's next key.
    public static let chosenKeys = StoreCapabilities(rawValue: 1 << 8)

    /// Every capability, with its display name, in a fixed order.
    public static let named: [(String, StoreCapabilities)] = [
        ("persistence", .persistence), ("orderedRelationships", .orderedRelationships),
        ("manyToMany", .manyToMany), ("largeValues", .largeValues),
        ("concurrentAccess", .concurrentAccess), ("queryPushdown", .queryPushdown), ("indexes", .indexes),
        ("history", .history), ("chosenKeys", .chosenKeys),
    ]

    /// The display names of the capabilities in this set.
    public var names: [String] { Self.named.filter { contains($0.1) }.map(\.0) }
}
