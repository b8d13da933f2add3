/// What the framework asks a custom store to fetch (SwiftData's `DataStoreFetchRequest`).
///
/// `descriptor.predicate` is non-`nil` exactly when the fetch filters, and `descriptor.sortBy` has
/// one entry per sort key, so a store that cannot run them throws `DataStoreError.preferInMemoryFilter`
/// / `.preferInMemorySort` as SwiftData's stores do. How Strata fills them in (the fetch reached the
/// adapter as the core's `FetchDescriptor`): see `CustomStoreAdapter`.
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
