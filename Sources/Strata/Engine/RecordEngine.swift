import Synchronization

/// The shared engine for stores that hold their records in memory: written once, used by the memory
/// backend and by backends that persist whole files (JSON, CSV, XML).
///
/// It assigns identifiers, validates, checks unique constraints, maintains inverses, propagates delete
/// rules and applies a save atomically. The committed state is an immutable value: a save builds the
/// next state from a copy (sharing all unchanged storage), hands it to the backend's `persist` step,
/// and publishes it only if that succeeds. Saves are serialized; fetches never wait for a save and
/// always see one committed state.
@_spi(StrataEngine) public final class RecordEngine: Sendable {
    /// The schema of the records.
    public let schema: Schema
    /// The store identifier in every permanent identifier.
    public let storeIdentifier: String
    private let committed: Mutex<StoreState>
    /// Serializes saves (and `replaceState` against a running save).
    private let writer = Mutex<Void>(())

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
        if let id = descriptor.pointLookupIdentifier {
            // Fetch by identifier, the hottest read: one lookup, no copy of the state.
            let entity = try schema.requireEntity(descriptor.entityName)
            guard !id.isTemporary, id.entityName == entity.name, id.storeIdentifier == storeIdentifier else { return [] }
            if S.self == DefaultSnapshot.self {
                return _identicalCast(lookup(entity, id.primaryKey).map { [$0] } ?? [], to: [S].self)
            }
            let state = self.state
            return state.tables[entity.index].records[id.primaryKey].map { [state.snapshot(entity, id.primaryKey, $0)] } ?? []
        }
        let state = self.state
        let (entity, keys) = try state.matchingKeys(descriptor)
        if S.self == DefaultSnapshot.self {
            // The common case, built without generic witnesses.
            var result: [DefaultSnapshot] = []
            result.reserveCapacity(keys.count)
            for key in keys { result.append(state.defaultSnapshot(entity, key, state.tables[entity.index].records[key]!)) }
            return _identicalCast(result, to: [S].self)
        }
        var result: [S] = []
        result.reserveCapacity(keys.count)
        for key in keys { result.append(state.snapshot(entity, key, state.tables[entity.index].records[key]!)) }
        return result
    }

    /// The record `id` names, or `nil` when the store does not hold it: the point lookup of
    /// `DataStore.snapshot(for:)`, agreeing with a fetch of `.identifierIn([id])`. Not generic, so a
    /// backend in another module calls a specialized path rather than the generic `fetch`.
    ///
    /// - Throws: `unknownEntity` when the schema has no entity `id.entityName` (as the fetch does).
    public func snapshot(for id: PersistentIdentifier) throws -> DefaultSnapshot? {
        // The search itself, not `requireEntity`'s wrapper around it (the hottest read; limit:
        // Benchmarks/Thresholds/memory-fetch-by-id.txt); the wrapper only for its error.
        guard let entity = schema.entity(named: id.entityName) else { _ = try schema.requireEntity(id.entityName); return nil }
        guard !id.isTemporary, id.storeIdentifier == storeIdentifier else { return nil }
        return lookup(entity, id.primaryKey)
    }

    /// One record of the committed state, read under the state lock without copying the state.
    private func lookup(_ entity: EntitySchema, _ key: Int64) -> DefaultSnapshot? {
        committed.withLock { state in
            state.tables[entity.index].records[key].map { state.defaultSnapshot(entity, key, $0) }
        }
    }

    /// How many records match `descriptor`, window applied.
    public func fetchCount(_ descriptor: FetchDescriptor) throws -> Int {
        try state.matchingCount(descriptor)
    }

    /// The identifiers of the records matching `descriptor`, in the contract's order.
    public func fetchIdentifiers(_ descriptor: FetchDescriptor) throws -> [PersistentIdentifier] {
        let state = self.state
        let (entity, keys) = try state.matchingKeys(descriptor)
        return keys.map { state.identifier(entity, $0) }
    }

    /// The history transactions `query` selects, from the committed state.
    public func fetchHistory(_ query: HistoryQuery) throws -> [StoreHistoryTransaction] {
        try state.history.fetch(query, storeIdentifier: storeIdentifier)
    }

    /// Removes the history transactions up to and including `token`, atomically, through the
    /// backend's persist step (which sees no record changes).
    ///
    /// - Throws: `invalidRequest` for another store's token; `persist`'s error, with nothing removed.
    public func deleteHistory(through token: StoreHistoryToken, persist: (CommitContext) throws -> Void = { _ in }) throws {
        try token.requireStore(storeIdentifier)
        try writer.withLock { _ in
            let previous = self.state
            var next = previous
            next.history.delete(through: token.transaction)
            try persist(CommitContext(previous: previous, next: next, changes: ChangeSet(entityCount: schema.entities.count)))
            committed.withLock { $0 = next }
        }
    }

    /// Replaces the committed state with one read back from storage (a backend that noticed its
    /// files were changed by someone else). Waits for a running save to finish.
    public func replaceState(_ state: StoreState) {
        writer.withLock { _ in committed.withLock { $0 = state } }
    }

    /// Applies `request` atomically.
    ///
    /// - Parameters:
    ///   - recordsHistory: whether the save adds its history transaction to the next state's
    ///     `history` (the store's configuration opted in); the persist step writes it with the data.
    ///   - persist: the backend's durable write of the next state; runs inside the save, and
    ///     if it throws, nothing is committed and the error propagates.
    /// - Throws: the contract's errors (`uniqueConstraintViolation`, `deleteDenied`, …) or `persist`'s.
    public func save<S: DataStoreSnapshot>(_ request: SaveRequest<S>, recordsHistory: Bool = false, persist: (CommitContext) throws -> Void = { _ in }) throws -> SaveResult<S> {
        try writer.withLock { _ in
            let previous = self.state
            var transaction = SaveTransaction(base: previous)
            let outcome = try transaction.run(IncomingRequest(request))
            if recordsHistory { transaction.recordHistory(outcome.changes, requested: HistoryRecorder.requested(request), author: request.author) }
            transaction.work._checkInvariants()
            try persist(CommitContext(previous: previous, next: transaction.work, changes: outcome.changes))
            let next = transaction.work
            committed.withLock { $0 = next }
            var changed: [PersistentIdentifier: S] = [:]
            for (entity, key, record) in outcome.changed { changed[next.identifier(entity, key)] = next.snapshot(entity, key, record) }
            return SaveResult(storeIdentifier: storeIdentifier, remappedIdentifiers: outcome.remap, deletedIdentifiers: outcome.deleted, changedSnapshots: changed)
        }
    }
}
