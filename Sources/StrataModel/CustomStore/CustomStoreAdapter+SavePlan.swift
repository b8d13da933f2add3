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
            try SaveValidation.checkCounts(s.attributes.count, s.relationships.count, of: entity, identifier: s.persistentIdentifier)
            // The plan applies relationship values as edges of their declared shape: a value of the
            // other shape is refused here rather than reshaped.
            for (i, r) in entity.relationships.enumerated() {
                if case .toMany = s.relationships[i], r.isToMany { continue }
                if case .toOne = s.relationships[i], !r.isToMany { continue }
                throw SaveValidation.shapeMismatch(entity, i, identifier: s.persistentIdentifier)
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

    /// Applies every relationship the save writes as the store contract orders it (§2), on both
    /// sides: each written record's relationships are compared with the stored ones (an insert
    /// starts empty) and only the real changes are applied, as edge additions and removals, in
    /// request order (inserts, then updates; each record's relationships in declaration order).
    /// So a later write wins over an earlier one that disagrees, and a record that merely repeats
    /// a value does not undo another record's change. A written list naming a target twice keeps
    /// the first; an ordered list keeps the written order where the save left its members as
    /// written, and gets members added from the other side at the end.
    mutating func maintainInverses() throws {
        let writers = inserted + updated
        for row in writers {
            var start = row
            start.relationships = storedBefore[row.persistentIdentifier]?.relationships ?? row.entity.relationships.map { .empty(for: $0) }
            write(start)
        }
        for row in writers {
            let id = row.persistentIdentifier
            let before = storedBefore[id]
            for (i, r) in row.entity.relationships.enumerated() {
                let was = before?.relationships[i] ?? .empty(for: r)
                var seen = Set<PersistentIdentifier>()
                let now = row.relationships[i].targets.filter { seen.insert($0).inserted }
                guard was.targets != now else { continue }
                for target in was.targets where !seen.contains(target) { detach(id, i, target) }
                for target in now where !was.targets.contains(target) { attach(id, i, target) }
                if r.isOrdered, var current = current(id), case .toMany(let members) = current.relationships[i], Set(members) == seen {
                    current.relationships[i] = .toMany(now)
                    write(current)
                }
            }
        }
        if let error = cache.failure { throw error }
    }

    /// Where relationship `index` of `entity` is seen from its targets: the inverse's index in the
    /// destination (`nil` for a relationship without a declared inverse).
    private func inverse(_ entity: EntitySchema, _ index: Int) -> Int? {
        let r = entity.relationships[index]
        return adapter.schema.entity(named: r.destination)?.relationshipIndex(r.inverse)
    }

    /// Adds the edge `source` → `target` of relationship `index`, on both sides: a to-one on either
    /// side lets go of the record it held (which loses its side of that edge).
    private mutating func attach(_ source: PersistentIdentifier, _ index: Int, _ target: PersistentIdentifier) {
        guard let row = current(source) else { return }
        let back = inverse(row.entity, index)
        hold(source, index, target, back: back)
        if let back { hold(target, back, source, back: index) }
    }

    /// Removes the edge `source` → `target` of relationship `index`, on both sides.
    private mutating func detach(_ source: PersistentIdentifier, _ index: Int, _ target: PersistentIdentifier) {
        guard let row = current(source) else { return }
        release(source, index, target)
        if let back = inverse(row.entity, index) { release(target, back, source) }
    }

    /// Makes relationship `index` of `holder` hold `target`; a to-one's previous target drops
    /// `holder` from its relationship `back`.
    private mutating func hold(_ holder: PersistentIdentifier, _ index: Int, _ target: PersistentIdentifier, back: Int?) {
        guard var row = current(holder), index < row.relationships.count else { return }
        switch row.relationships[index] {
        case .toMany(let ids):
            guard !ids.contains(target) else { return }
            row.relationships[index] = .toMany(ids + [target])
            write(row)
        case .toOne(let previous):
            guard previous != target else { return }
            row.relationships[index] = .toOne(target)
            write(row)
            if let previous, let back { release(previous, back, holder) }
        }
    }

    /// Makes relationship `index` of `holder` stop holding `target`.
    private mutating func release(_ holder: PersistentIdentifier, _ index: Int, _ target: PersistentIdentifier) {
        guard var row = current(holder), index < row.relationships.count else { return }
        switch row.relationships[index] {
        case .toMany(let ids):
            guard ids.contains(target) else { return }
            row.relationships[index] = .toMany(ids.filter { $0 != target })
        case .toOne(let previous):
            guard previous == target else { return }
            row.relationships[index] = .toOne(nil)
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
