extension ModelContext {
    /// SwiftData's `fetch(_:batchSize:)`: the objects matching `descriptor`, in order, as a
    /// collection that makes them `batchSize` at a time, the first time an index in a batch is read.
    ///
    /// The store is read once, now: the collection keeps what it returned for every matching record
    /// (the same results `fetch(_:)` gives, pending changes included as it includes them) and makes
    /// the objects — and registers them in the context — a batch at a time, so a program that reads
    /// a few results of a large fetch makes a few objects. Reading an element never reads the store
    /// and never fails. `relationshipKeyPathsForPrefetching` is applied to each batch as it is made.
    ///
    /// - Throws: what `fetch(_:)` throws (`unsupportedPredicate` before any store work; the store's
    ///   error; `typeMismatch` for a stored value that does not fit its Swift type), at the call.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> {
        autosaveBeforeReading()
        let request = try descriptor.storeDescriptor()
        try descriptor.checkPropertiesToFetch()
        let plan = try prefetchPlan(descriptor.relationshipKeyPathsForPrefetching)
        let pending = descriptor.includePendingChanges ? pendingSet(of: T.entityName) : PendingSet()
        let info = ModelTypeInfo.of(T.self)
        let results: [FetchedBatches<T>.Result] = try ContextFetches.answering(descriptor, request, by: store) {
            if pending.isEmpty {
                return try store.fetch(request).map { snapshot in
                    try checkRepresentable(snapshot, as: T.self, info: info)
                    return .record(snapshot)
                }
            }
            return try pendingRows(request, pending).compactMap { row in
                switch row {
                case .snapshot(let snapshot):
                    try checkRepresentable(snapshot, as: T.self, info: info)
                    return .record(snapshot)
                case .object(let model):
                    return (model as? T).map { .object($0) }
                }
            }
        }
        let batches = FetchedBatches(results, batchSize: batchSize, context: self, prefetchPlan: plan)
        return FetchResultsCollection(count: batches.count) { batches.object(at: $0) }
    }

    /// SwiftData's `fetchIdentifiers(_:batchSize:)`: the identifiers of the objects matching
    /// `descriptor`, in order, as `fetchIdentifiers(_:)` gives them.
    ///
    /// An identifier costs no object, so every identifier is read now, in one store read;
    /// `batchSize` changes nothing in what the collection holds or returns.
    ///
    /// - Throws: what `fetchIdentifiers(_:)` throws, at the call.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<PersistentIdentifier> {
        FetchResultsCollection(try fetchIdentifiers(descriptor))
    }
}
