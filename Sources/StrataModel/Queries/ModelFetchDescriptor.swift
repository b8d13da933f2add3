import Foundation

/// What to fetch of one model type: SwiftData's descriptor, run by the store.
///
/// The `#Predicate` is translated into the core's `FetchPredicate` and the `SortDescriptor`s into
/// `SortKey`s, so every backend filters and sorts in its own engine (SQL for SQLite); a predicate
/// that has no translation fails the fetch with `unsupportedPredicate` before any store work
/// (see docs/queries.md).
///
/// ```swift
/// var descriptor = FetchDescriptor<Note>(
///     predicate: #Predicate { $0.folder?.name == "Work" && $0.isPinned },
///     sortBy: [SortDescriptor(\.createdAt, order: .reverse)])
/// descriptor.fetchLimit = 10
/// let notes = try context.fetch(descriptor)
/// ```
///
/// The core forms remain for what `#Predicate` and Linux's `SortDescriptor` cannot say:
/// `filter` (a `FetchPredicate` over property names, combined with `predicate` by AND) and
/// `sortKeys` (applied after `sortBy`).
public struct FetchDescriptor<T: PersistentModel> {
    /// Which objects: a Foundation predicate; `nil` for all.
    public var predicate: Predicate<T>?
    /// Which records, as a core predicate over property names; AND-ed with `predicate`.
    public var filter: FetchPredicate?
    /// The order, most significant first; ties by primary key (insertion order).
    public var sortBy: [SortDescriptor<T>]
    /// Core sort keys, applied after `sortBy`.
    public var sortKeys: [SortKey]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?
    /// Whether the context's unsaved inserts, changes and deletes are seen, as in SwiftData (the
    /// default). `enumerate` and batch delete read the store only.
    public var includePendingChanges = true
    /// The properties the caller will read, for SwiftData source compatibility. Checked (each must
    /// name a persisted property) but without effect on I/O: every backend returns whole records,
    /// and properties are decoded only when first read anyway.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose targets are loaded with the result: one store round trip per
    /// relationship for the whole result, instead of one per object on first access.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// SwiftData's descriptor: a predicate and sort descriptors.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.filter = nil
        self.sortBy = sortBy
        self.sortKeys = []
        self.fetchLimit = nil
        self.fetchOffset = nil
    }

    /// A descriptor with a core predicate and core sort keys.
    public init(filter: FetchPredicate?, sortBy: [SortKey] = [], fetchLimit: Int? = nil, fetchOffset: Int? = nil) {
        self.predicate = nil
        self.filter = filter
        self.sortBy = []
        self.sortKeys = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }

    /// The predicate the store runs: the translated `predicate` AND `filter`.
    ///
    /// - Throws: `unsupportedPredicate` for a construct with no store translation.
    func storePredicate() throws -> FetchPredicate? {
        let translated = try predicate.map { try PredicateTranslator.translate($0) }
        switch (translated, filter) {
        case (let p?, let f?): return .and([p, f])
        case (let p, let f): return p ?? f
        }
    }

    /// The store's sort keys: `sortBy` translated, then `sortKeys`.
    ///
    /// - Throws: `unknownProperty` for a key path that names no persisted property.
    func storeSortKeys() throws -> [SortKey] {
        try sortBy.map { try SortKey($0) } + sortKeys
    }

    /// Checks `propertiesToFetch`.
    ///
    /// - Throws: `unknownProperty` for a key path that names no persisted property.
    func checkPropertiesToFetch() throws {
        for keyPath in propertiesToFetch where T.propertyName(for: keyPath) == nil {
            throw StrataError(.unknownProperty, "propertiesToFetch names a key path of \(T.self) that is not a persisted property.", entity: T.entityName)
        }
    }

    /// The store-level descriptor, with this descriptor's window.
    func storeDescriptor() throws -> Strata.FetchDescriptor {
        Strata.FetchDescriptor(
            entity: T.entityName, predicate: try storePredicate(), sortBy: try storeSortKeys(),
            fetchLimit: fetchLimit, fetchOffset: fetchOffset ?? 0)
    }
}

extension SortKey {
    /// A sort key by a model's key path — a property, or a chain through to-one relationships
    /// (`\Note.folder?.name`) — named through the tables `@Model` generates. A key path that names
    /// no persisted property makes the fetch fail with `unknownProperty`. `comparator` orders
    /// strings: `SortKey(\\Note.title, comparator: .localizedStandard)` is the Finder-like order
    /// Foundation's `SortDescriptor` cannot ask for on Linux.
    public init<T: PersistentModel, V>(_ keyPath: KeyPath<T, V>, order: Strata.SortOrder = .ascending, comparator: StringComparator = .byteOrder) {
        let names = ModelKeyPaths.propertyPath(keyPath, of: T.self) ?? ["\\\(T.self).<not persisted>"]
        self.init(PropertyPath(names), order: order, comparator: comparator)
    }

    /// The key a Foundation `SortDescriptor` stands for.
    ///
    /// A `String` key compares by UTF-8 bytes, the core's default order: the `.lexical` comparator
    /// (the only one Foundation offers on Linux) and a plain `Comparable` key both map to it.
    ///
    /// - Throws: `unknownProperty` when the key path names no persisted property;
    ///   `unsupportedPredicate` when the property's stored form orders differently from its Swift
    ///   type (a `Comparable` enum whose raw values sort otherwise, a `Codable` document).
    public init<T: PersistentModel>(_ descriptor: SortDescriptor<T>) throws {
        guard let keyPath = descriptor.keyPath, let names = ModelKeyPaths.propertyPath(keyPath, of: T.self) else {
            throw StrataError(
                .unknownProperty, "A SortDescriptor on \(T.self) uses a key path that names no persisted property (nor a chain of to-one relationships ending on one).",
                entity: T.entityName)
        }
        let path = PropertyPath(names)
        switch SwiftOrder.plan(for: Swift.type(of: keyPath).valueType) {
        case .stored: break
        case .cases(let all):
            throw StrataError(
                .unsupportedPredicate,
                "A SortDescriptor on \(T.self) sorts by '\(path)', whose stored raw values do not order as \(Swift.type(of: all[0])) does; Strata refuses it rather than sort in the wrong order. Sort the fetched objects in Swift, or by a stored attribute that orders the same way.",
                entity: T.entityName)
        case .refused(let why):
            throw StrataError(.unsupportedPredicate, "A SortDescriptor on \(T.self) sorts by '\(path)', which the store cannot order as Swift does: \(why).", entity: T.entityName)
        }
        self.init(path, order: descriptor.order == .forward ? .ascending : .descending)
    }
}
