/// What to fetch of one model type: a filter, a sort, a window.
///
/// Named like SwiftData's, generic over the model type. The filter is the core's `FetchPredicate`
/// (property names as strings, run by the store); Foundation `#Predicate` support comes on top of
/// this type. Sort keys can be written with key paths: `SortKey(\Trip.start, order: .descending)`.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(filter: .compare("name", .hasPrefix, "R"), sortBy: [SortKey(\Trip.start)])
/// descriptor.fetchLimit = 10
/// let trips = try context.fetch(descriptor)
/// ```
public struct FetchDescriptor<T: PersistentModel> {
    /// Which records: a core predicate over the entity's property names; `nil` for all.
    public var filter: FetchPredicate?
    /// The order, most significant key first; ties by primary key.
    public var sortBy: [SortKey]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?

    /// Describes a fetch.
    public init(filter: FetchPredicate? = nil, sortBy: [SortKey] = [], fetchLimit: Int? = nil, fetchOffset: Int? = nil) {
        self.filter = filter
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }

    /// The store-level descriptor.
    var storeDescriptor: Strata.FetchDescriptor {
        Strata.FetchDescriptor(entity: T.entityName, predicate: filter, sortBy: sortBy, fetchLimit: fetchLimit, fetchOffset: fetchOffset ?? 0)
    }
}

extension SortKey {
    /// A sort key by a model's key path, named through the table `@Model` generates. A key path to
    /// a property that is not persisted names nothing, and the fetch fails with `unknownProperty`.
    public init<T: PersistentModel, V>(_ keyPath: KeyPath<T, V>, order: SortOrder = .ascending) {
        self.init(PropertyPath([T.propertyName(for: keyPath) ?? "\\\(T.self).<not persisted>"]), order: order)
    }
}
