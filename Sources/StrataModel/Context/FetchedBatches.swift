/// What a `FetchResultsCollection` of models reads from: the records of a completed fetch and the
/// objects made so far, one batch at a time.
///
/// A batch's objects are made (and registered in the context) the first time an index in it is
/// read; its records are then let go. Records were checked against the model type when the fetch
/// was made, so making an object cannot fail here.
final class FetchedBatches<T: PersistentModel> {
    /// The context the objects are registered in.
    private let context: ModelContext
    /// How many results a batch holds (at least 1).
    private let batchSize: Int
    /// The fetch's results, in result order; a made batch's are set to `nil`.
    private var records: [Result?]
    /// The objects made so far, in result order.
    private var objects: [T?]
    /// The relationships to prefetch for each batch (`relationshipKeyPathsForPrefetching`).
    private let prefetchPlan: [(ordinal: Int, destination: any PersistentModel.Type)]

    /// One result of the fetch before its batch is made.
    enum Result {
        /// An object of the context, matched with its unsaved values.
        case object(T)
        /// A record as the store returned it, checked against `T`.
        case record(StoredSnapshot)
    }

    /// The batches of `results`, `batchSize` at a time, made in `context`.
    init(_ results: [Result], batchSize: Int, context: ModelContext, prefetchPlan: [(ordinal: Int, destination: any PersistentModel.Type)]) {
        self.context = context
        self.batchSize = max(1, batchSize)
        self.records = results
        self.objects = Array(repeating: nil, count: results.count)
        self.prefetchPlan = prefetchPlan
    }

    /// How many results there are.
    var count: Int { objects.count }

    /// The object at `position`, making its batch first.
    func object(at position: Int) -> T {
        if let made = objects[position] { return made }
        makeBatch(containing: position)
        guard let made = objects[position] else { preconditionFailure("a made batch has no object at \(position)") }
        return made
    }

    /// Makes the objects of the batch `position` falls in.
    private func makeBatch(containing position: Int) {
        let start = position / batchSize * batchSize
        let range = start..<min(start + batchSize, records.count)
        let info = ModelTypeInfo.of(T.self)
        var batch: [T] = []
        batch.reserveCapacity(range.count)
        for index in range {
            guard let record = records[index] else { continue }
            records[index] = nil
            let model: T
            switch record {
            case .object(let object): model = object
            case .record(let snapshot): model = context.registerFetched(snapshot, as: T.self, info: info)
            }
            objects[index] = model
            batch.append(model)
        }
        // Prefetching only saves later loads; a failure leaves those to load on access.
        if !prefetchPlan.isEmpty { try? context.prefetch(prefetchPlan, for: batch) }
    }
}
