/// What the framework asks a custom store to fetch (SwiftData's `DataStoreFetchRequest`).
///
/// From a `ModelContext`, `descriptor` is the context's own `FetchDescriptor<T>`: its `#Predicate`,
/// `SortDescriptor`s and window, for a store that runs them itself; a store that cannot throws
/// `DataStoreError.preferInMemoryFilter` / `.preferInMemorySort`, as SwiftData's stores do, and the
/// framework does it. Without a context (the conformance suite) the predicate and sort are
/// stand-ins for the core's (in `descriptor.filter` / `sortKeys`): see `CustomStoreAdapter`.
public struct DataStoreFetchRequest<T: PersistentModel>: @unchecked Sendable {
    /// What to fetch.
    public let descriptor: FetchDescriptor<T>
    /// The editing state of the context fetching.
    public let editingState: EditingState

    init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}

/// What a custom store answers a fetch with (SwiftData's `DataStoreFetchResult`).
public struct DataStoreFetchResult<ModelType: PersistentModel, SnapshotType: DataStoreSnapshot>: @unchecked Sendable {
    /// The descriptor of the request answered.
    public let descriptor: FetchDescriptor<ModelType>
    /// The records fetched.
    public let fetchedSnapshots: [SnapshotType]
    /// Other records the store has at hand (targets of the fetched records' relationships), by
    /// identifier; the framework reads relationship paths of an in-memory filter or sort from them
    /// before asking the store again.
    public let relatedSnapshots: [PersistentIdentifier: SnapshotType]

    /// A fetch's answer.
    public init(descriptor: FetchDescriptor<ModelType>, fetchedSnapshots: [SnapshotType], relatedSnapshots: [PersistentIdentifier: SnapshotType]) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}
