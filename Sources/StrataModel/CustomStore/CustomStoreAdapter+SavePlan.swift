/// What the adapter sends a custom store for one core save: the request's inserts, its updates as
/// whole records (partial updates merged over the stored ones, after their conflict check), and
/// the other side of every relationship the save writes, as SwiftData's context sends both sides
/// of a relationship change.
struct SavePlan<Wrapped: DataStore> {
    private(set) var inserted: [Strata.DefaultSnapshot]
    private(set) var updated: [Strata.DefaultSnapshot]
    /// Position of each record of the plan: (is an insert, index).
    private var index: [PersistentIdentifier: (insert: Bool, at: Int)] = [:]
    /// What each record of the request held when sent (`nil` for records the plan added).
    private var sent: [PersistentIdentifier: Strata.DefaultSnapshot] = [:]
    /// Records the request updated, as stored before the save.
    private var storedBefore: [PersistentIdentifier: Strata.DefaultSnapshot] = [:]
    private let adapter: CustomStoreAdapter<Wrapped>
    private let cache = RecordCache()

    init(_ request: SaveRequest<Strata.DefaultSnapshot>, adapter: CustomStoreAdapter<Wrapped>) throws {
        self.adapter = adapter
        // Values are sent to the store by name, which would hide a snapshot of the wrong shape:
        // refuse it here, as a store reading positions would.
        for s in request.inserted + request.updated {
            let entity = s.entity
            guard s.attributes.count == entity.attributes.count, s.relationships.count == entity.relationships.count else {
                throw StrataError(
                    .typeMismatch, "A snapshot of '\(entity.name)' has \(s.attributes.count) attribute and \(s.relationships.count) relationship values; the entity declares \(entity.attributes.count) and \(entity.relationships.count).",
                    entity: entity.name, identifiers: [s.persistentIdentifier])
            }
        }
        inserted = request.inserted
        updated = []
        for (n, s) in inserted.enumerated() {
            index[s.persistentIdentifier] = (true, n)
            sent[s.persistentIdentifier] = s
        }
        for s in request.updated {
            let stored = stored(s.persistentIdentifier)
            if let stored { storedBefore[s.persistentIdentifier] = stored }
            var whole = s
            if let written = request.updatedProperties[s.persistentIdentifier], let stored { whole = try Self.merged(s, written, over: stored) }
            index[s.persistentIdentifier] = (false, updated.count)
            sent[s.persistentIdentifier] = s
            updated.append(whole)
        }
        if let error = cache.failure { throw error }
    }

    /// The stored record `id` names, loading its entity from the store once.
    private func stored(_ id: PersistentIdentifier) -> Strata.DefaultSnapshot? {
        guard !id.isTemporary else { return nil }
        return cache.record(id) { [adapter, cache] in try adapter.records(ofEntityNamed: id.entityName, into: cache) }
    }

    /// The record as this save will leave it: from the plan, else as stored.
    private func current(_ id: PersistentIdentifier) -> Strata.DefaultSnapshot? {
        if let at = index[id] { return at.insert ? inserted[at.at] : updated[at.at] }
        return stored(id)
    }

    private mutating func write(_ row: Strata.DefaultSnapshot) {
        if let at = index[row.persistentIdentifier] {
            if at.insert { inserted[at.at] = row } else { updated[at.at] = row }
        } else {
            index[row.persistentIdentifier] = (false, updated.count)
            updated.append(row)
        }
    }

    /// Adds the other side of every relationship target the save adds or removes.
    mutating func maintainInverses() throws {
        let writers = inserted + updated
        for row in writers {
            let before = storedBefore[row.persistentIdentifier]
            for (i, r) in row.entity.relationships.enumerated() {
                guard let destination = adapter.schema.entity(named: r.destination), let back = destination.relationshipIndex(r.inverse) else { continue }
                let now = row.relationships[i].targets
                let was = before?.relationships[i].targets ?? []
                for target in now where !was.contains(target) { link(target, back, to: row.persistentIdentifier, forward: i) }
                for target in was where !now.contains(target) { unlink(target, back, from: row.persistentIdentifier) }
            }
        }
        if let error = cache.failure { throw error }
    }

    /// Makes relationship `back` of `target` hold `source`; a to-one taken from another record
    /// drops `target` from that record's relationship `forward`.
    private mutating func link(_ target: PersistentIdentifier, _ back: Int, to source: PersistentIdentifier, forward: Int) {
        guard var row = current(target), back < row.relationships.count else { return }
        switch row.relationships[back] {
        case .toMany(let ids):
            guard !ids.contains(source) else { return }
            row.relationships[back] = .toMany(ids + [source])
        case .toOne(let previous):
            guard previous != source else { return }
            row.relationships[back] = .toOne(source)
            if let previous { unlink(previous, forward, from: target) }
        }
        write(row)
    }

    /// Makes relationship `back` of `target` stop holding `source`.
    private mutating func unlink(_ target: PersistentIdentifier, _ back: Int, from source: PersistentIdentifier) {
        guard var row = current(target), back < row.relationships.count else { return }
        switch row.relationships[back] {
        case .toMany(let ids):
            guard ids.contains(source) else { return }
            row.relationships[back] = .toMany(ids.filter { $0 != source })
        case .toOne(let previous):
            guard previous == source else { return }
            row.relationships[back] = .toOne(nil)
        }
        write(row)
    }

    /// Records the store will hold differently from what the request sent: the other sides of
    /// relationships, and merged partial updates. A save result reports them.
    func changedBeyondRequest() -> [Strata.DefaultSnapshot] {
        (inserted + updated).filter { row in
            guard let original = sent[row.persistentIdentifier] else { return true }
            return original.attributes != row.attributes || !Self.sameLinks(original, row)
        }
    }

    private static func sameLinks(_ a: Strata.DefaultSnapshot, _ b: Strata.DefaultSnapshot) -> Bool {
        guard a.relationships.count == b.relationships.count else { return false }
        return a.entity.relationships.indices.allSatisfy { same(a.relationships[$0], b.relationships[$0], ordered: a.entity.relationships[$0].isOrdered) }
    }

    /// Relationship values compare as sets unless the relationship is ordered.
    private static func same(_ a: RelationshipValue, _ b: RelationshipValue, ordered: Bool) -> Bool {
        ordered ? a == b : Set(a.targets) == Set(b.targets) && a.targets.count == b.targets.count
    }

    /// A partial update's values over the stored record, after its conflict check.
    private static func merged(_ sent: Strata.DefaultSnapshot, _ written: UpdatedProperties, over stored: Strata.DefaultSnapshot) throws -> Strata.DefaultSnapshot {
        let entity = sent.entity
        var attributes = stored.attributes
        var relationships = stored.relationships
        for (n, i) in written.attributes.enumerated() {
            guard i >= 0, i < entity.attributes.count, i < sent.attributes.count else {
                throw StrataError(.invalidRequest, "updatedProperties lists attribute \(i), which \(entity.name) does not have.", entity: entity.name, identifiers: [sent.persistentIdentifier])
            }
            if let expected = written.expectedAttributes, n < expected.count, stored.attributes[i] != expected[n] {
                throw conflict(entity.attributes[i].name, sent)
            }
            attributes[i] = sent.attributes[i]
        }
        for (n, i) in written.relationships.enumerated() {
            guard i >= 0, i < entity.relationships.count, i < sent.relationships.count else {
                throw StrataError(.invalidRequest, "updatedProperties lists relationship \(i), which \(entity.name) does not have.", entity: entity.name, identifiers: [sent.persistentIdentifier])
            }
            if let expected = written.expectedRelationships, n < expected.count,
                !same(stored.relationships[i], expected[n], ordered: entity.relationships[i].isOrdered)
            {
                throw conflict(entity.relationships[i].name, sent)
            }
            relationships[i] = sent.relationships[i]
        }
        return Strata.DefaultSnapshot(entity: entity, persistentIdentifier: sent.persistentIdentifier, attributes: attributes, relationships: relationships)
    }

    private static func conflict(_ property: String, _ sent: Strata.DefaultSnapshot) -> StrataError {
        StrataError(
            .writeConflict, "\(sent.entity.name).\(property) of \(sent.persistentIdentifier) changed since it was read; fetch it again and reapply the change.",
            entity: sent.entity.name, properties: [property], identifiers: [sent.persistentIdentifier])
    }
}
