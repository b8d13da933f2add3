/// Fetches that see the context's unsaved work (`includePendingChanges`, on by default as in
/// SwiftData): inserted objects that match appear, changed objects are judged by their current
/// values, deleted ones disappear.
///
/// The store answers for every record the context has not touched; the translated predicate is
/// evaluated with the core's `PredicateEvaluator` over the context's pending objects only — never
/// over store records. Only objects of the fetched type are re-judged: an unsaved change to a
/// related object (renaming a folder) does not move untouched notes in or out of a result.
extension ModelContext {
    /// The pending objects of `T`: identifiers the store's answer must not be trusted for (changed
    /// or deleted records) and the objects to judge in memory (inserted and changed, not deleted).
    struct PendingSet {
        var storedIDs: [PersistentIdentifier] = []
        var candidates: [any PersistentModel] = []
        var isEmpty: Bool { storedIDs.isEmpty && candidates.isEmpty }
    }

    func pendingSet(of entityName: String) -> PendingSet {
        var set = PendingSet()
        for model in inserted where model.persistentBackingData.info.entityName == entityName { set.candidates.append(model) }
        for key in changedOrder {
            guard let model = changed[key], model.persistentBackingData.info.entityName == entityName,
                  model.persistentBackingData.hasChanges, !model.isDeleted else { continue }
            set.storedIDs.append(model.persistentModelID)
            set.candidates.append(model)
        }
        for key in deletedOrder {
            guard let model = deleted[key], model.persistentBackingData.info.entityName == entityName else { continue }
            set.storedIDs.append(model.persistentModelID)
        }
        return set
    }

    /// The merged, ordered, windowed rows of a fetch with pending changes.
    func pendingRows(_ request: Strata.FetchDescriptor, _ pending: PendingSet) throws -> [PendingRecord] {
        let entity = try container.schema.requireEntity(request.entityName)
        let reader = PendingReader(self)
        let evaluator = PredicateEvaluator(schema: container.schema, reader: reader)
        let matches: (PendingRecord) -> Bool = try request.predicate.map { try evaluator.compile($0, for: entity) } ?? { _ in true }
        let getters = try request.sortBy.map { try evaluator.sortGetter($0, entity) }
        let descending = request.sortBy.map { $0.order == .descending }

        // The store's rows, enough of them that the window survives dropping the pending ones.
        var widened = request
        widened.fetchOffset = 0
        widened.fetchLimit = request.fetchLimit.map { request.fetchOffset + $0 + pending.storedIDs.count }
        let untrusted = Set(pending.storedIDs)
        let stored = try store.fetch(widened).filter { !untrusted.contains($0.persistentIdentifier) }.map(PendingRecord.snapshot)

        // The pending objects that match, in the fetch's order; new objects after stored ties.
        typealias Row = (record: PendingRecord, values: [Value], key: Int64, index: Int)
        func row(_ record: PendingRecord, _ index: Int) -> Row {
            let id = record.identifier
            return (record, getters.map { $0(record) }, id.isTemporary ? Int64.max : id.primaryKey, index)
        }
        func precedes(_ a: Row, _ b: Row) -> Bool {
            for i in descending.indices {
                let order = Value.sortOrder(a.values[i], b.values[i])
                if order != 0 { return descending[i] ? order > 0 : order < 0 }
            }
            return a.key != b.key ? a.key < b.key : a.index < b.index
        }
        let fresh = pending.candidates.map(PendingRecord.object).filter(matches).enumerated().map { row($1, $0) }.sorted(by: precedes)

        // Merge: the store's rows keep the store's order; pending ones go where they sort.
        var merged: [PendingRecord] = []
        merged.reserveCapacity(stored.count + fresh.count)
        var next = 0
        for record in stored {
            let current = row(record, 0)
            while next < fresh.count, precedes(fresh[next], current) {
                merged.append(fresh[next].record)
                next += 1
            }
            merged.append(record)
        }
        merged.append(contentsOf: fresh[next...].map(\.record))
        return Array(merged.dropFirst(request.fetchOffset).prefix(request.fetchLimit ?? Int.max))
    }

    /// How many records match with pending changes: the store's count, less the pending records it
    /// counted, plus the pending objects that match; then the window.
    func pendingCount(_ request: Strata.FetchDescriptor, _ pending: PendingSet) throws -> Int {
        let entity = try container.schema.requireEntity(request.entityName)
        let evaluator = PredicateEvaluator(schema: container.schema, reader: PendingReader(self))
        let matches: (PendingRecord) -> Bool = try request.predicate.map { try evaluator.compile($0, for: entity) } ?? { _ in true }
        var whole = request
        whole.fetchOffset = 0
        whole.fetchLimit = nil
        var total = try store.fetchCount(whole)
        if !pending.storedIDs.isEmpty {
            var untrusted = whole
            untrusted.predicate = .and([whole.predicate ?? .constant(true), .identifierIn(pending.storedIDs)])
            total -= try store.fetchCount(untrusted)
        }
        total += pending.candidates.lazy.map(PendingRecord.object).filter(matches).count
        return max(0, min(total - request.fetchOffset, request.fetchLimit ?? Int.max))
    }
}
