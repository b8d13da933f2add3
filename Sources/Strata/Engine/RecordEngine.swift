import Synchronization

/// The shared engine for stores that hold their records in memory: written once, used by the memory
/// backend and by backends that persist whole files (JSON, CSV, XML).
///
/// It assigns identifiers, validates, checks unique constraints, maintains inverses, propagates delete
/// rules and applies a save atomically. The committed state is an immutable value: a save builds the
/// next state from a copy (sharing all unchanged storage), hands it to the backend's `persist` step,
/// and publishes it only if that succeeds. Saves are serialized; fetches never wait for a save and
/// always see one committed state.
public final class RecordEngine: Sendable {
    /// The schema of the records.
    public let schema: Schema
    /// The store identifier in every permanent identifier.
    public let storeIdentifier: String
    private let committed: Mutex<StoreState>
    private let writer = Mutex<Int>(0)

    /// An engine starting from `state` (empty for a new store, loaded for an existing one).
    public init(state: StoreState) {
        self.schema = state.schema
        self.storeIdentifier = state.storeIdentifier
        self.committed = Mutex(state)
    }

    /// The last committed state.
    public var state: StoreState { committed.withLock { $0 } }

    /// The snapshots matching `descriptor`, in the contract's order.
    public func fetch<S: DataStoreSnapshot>(_ descriptor: FetchDescriptor, as: S.Type = S.self) throws -> [S] {
        let state = self.state
        let (entity, keys) = try state.matchingKeys(descriptor)
        var result: [S] = []
        result.reserveCapacity(keys.count)
        for key in keys { result.append(state.snapshot(entity, key, state.tables[entity.index].records[key]!)) }
        return result
    }

    /// How many records match `descriptor`, window applied.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        try state.matchingKeys(descriptor).1.count
    }

    /// The identifiers of the records matching `descriptor`, in the contract's order.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        let state = self.state
        let (entity, keys) = try state.matchingKeys(descriptor)
        return keys.map { state.identifier(entity, $0) }
    }

    /// Applies `request` atomically.
    ///
    /// - Parameter persist: the backend's durable write of the next state; runs inside the save, and
    ///   if it throws, nothing is committed and the error propagates.
    /// - Throws: the contract's errors (`uniqueConstraintViolation`, `deleteDenied`, …) or `persist`'s.
    public func save<S: DataStoreSnapshot>(_ request: SaveRequest<S>, persist: (CommitContext) throws -> Void = { _ in }) throws -> SaveResult<S> {
        try writer.withLock { generation in
            let previous = self.state
            var transaction = SaveTransaction<S>(base: previous)
            let (changes, result) = try transaction.run(request)
            try persist(CommitContext(previous: previous, next: transaction.work, changes: changes))
            let next = transaction.work
            committed.withLock { $0 = next }
            generation += 1
            return result
        }
    }
}
