/// What to fetch: an entity, an optional predicate, a sort, and a window.
///
/// Results are ordered by `sortBy`, then by primary key ascending, so equal sort keys ("ties") come
/// out in the same order on every backend. Without `sortBy` the order is primary key ascending.
///
/// ```swift
/// var d = FetchDescriptor(entity: "Item", predicate: .compare("category", .equal, 42))
/// d.sortBy = [SortKey("price", order: .descending)]
/// d.fetchLimit = 10
/// ```
public struct FetchDescriptor: Sendable, Hashable {
    /// The entity to fetch.
    public var entityName: String
    /// Which records; `nil` for all.
    public var predicate: FetchPredicate?
    /// The sort keys, most significant first.
    public var sortBy: [SortKey]
    /// At most this many results; `nil` for no limit.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int

    /// Describes a fetch.
    public init(entity entityName: String, predicate: FetchPredicate? = nil, sortBy: [SortKey] = [], fetchLimit: Int? = nil, fetchOffset: Int = 0) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}

/// One sort key: a property path, a direction and how strings compare.
///
/// `nil` sorts before every value in ascending order and after every value in descending order.
public struct SortKey: Sendable, Hashable {
    /// The property to sort by (an attribute, possibly through to-one relationships).
    public var path: PropertyPath
    /// The direction.
    public var order: SortOrder
    /// How string values compare (`.byteOrder` unless asked); other values ignore it.
    public var comparator: StringComparator

    /// Sorts by `path`.
    public init(_ path: PropertyPath, order: SortOrder = .ascending, comparator: StringComparator = .byteOrder) {
        self.path = path
        self.order = order
        self.comparator = comparator
    }
}

/// A sort direction.
public enum SortOrder: String, Sendable, Hashable, Codable {
    /// Smallest first.
    case ascending
    /// Largest first.
    case descending
}
