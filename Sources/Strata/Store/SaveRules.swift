/// The rules over a whole save, written once for every backend (docs/architecture.md, "One home for
/// each save rule"): the delete-rule walk, the relationship rules and the order they are checked in,
/// the choice of the unique violation a failed save reports, and one function per error they raise.
///
/// A backend keeps its own storage and answers `SaveRuleHost`'s questions about it; the decisions —
/// which records go, which fault wins, which records an error names, its message — are made here.
/// The per-snapshot checks (entity, values, references, identifiers) are `SaveValidation`'s.
public enum SaveRules {
    // MARK: Link maintenance

    /// The rule of every edge a save adds while it maintains links (both sides of a relationship,
    /// after the request's references were checked): its target must be a record the save's state
    /// holds, else the save fails with `danglingReference` naming the target and the source as the
    /// client knows them. One home for the engine, SQLite and LMDB (each answers `holds` its own way,
    /// from its caches first); inlined, so the answer's closure costs nothing on the hot path.
    ///
    /// - Parameters:
    ///   - entity: the target's entity index; `key` its key.
    ///   - source: the entity of the record whose relationship `relationship` adds the edge;
    ///     `sourceKey` its key.
    ///   - holds: whether the save's state holds the target now.
    ///   - client: the identifier the client knows a record by (temporary for one the save inserts).
    @inlinable
    public static func requireExists(_ entity: Int, _ key: Int64, referencedBy source: EntitySchema, _ sourceKey: Int64, relationship: Int, holds: () throws -> Bool, client: (Int, Int64) -> PersistentIdentifier) throws {
        guard try !holds() else { return }
        throw SaveValidation.danglingReference(client(entity, key), from: source, relationship: relationship, source: client(source.index, sourceKey))
    }

    // MARK: Errors

    /// The error for a record that would share the values of unique constraint `constraint` with
    /// `holder`: the holder first, then the offender, as the contract asks.
    public static func uniqueViolation(_ entity: EntitySchema, constraint: Int, holder: PersistentIdentifier, offender: PersistentIdentifier) -> StrataError {
        uniqueViolation(entity: entity.name, properties: entity.uniqueConstraints[constraint].map(entity.name(of:)), records: (holder, offender))
    }

    /// The error for a collision a backend's storage reported but whose records it could not name
    /// (no group of records sharing values was found): the entity and, when known, the constraint.
    public static func unnamedUniqueViolation(_ entity: EntitySchema, constraint: Int?) -> StrataError {
        uniqueViolation(entity: entity.name, properties: constraint.map { entity.uniqueConstraints[$0].map(entity.name(of:)) } ?? [])
    }

    /// The unique-violation sentence, written once: the offender would share the constraint's values
    /// (`properties`, when known) with the holder; without the records (a storage engine refused the
    /// values and nothing names them), "a record of" the entity (when known) and "another", with the
    /// storage's own words as `detail`. Every unique violation a save raises is made here.
    public static func uniqueViolation(entity: String?, properties: [String], records: (holder: PersistentIdentifier, offender: PersistentIdentifier)? = nil, detail: String? = nil) -> StrataError {
        let what = properties.isEmpty ? "a unique constraint's values" : properties.joined(separator: ", ")
        let offender = records.map { "\($0.offender)" } ?? "A record" + (entity.map { " of '\($0)'" } ?? "")
        let holder = records.map { "\($0.holder), which already holds those values" } ?? "another"
        return StrataError(.uniqueConstraintViolation, "\(offender) would share \(what) with \(holder)\(detail.map { " (\($0))" } ?? ""). Change the values or update \(records == nil ? "the record that holds them" : "that record") instead.", entity: entity, properties: properties, identifiers: records.map { [$0.holder, $0.offender] } ?? [])
    }

    /// The error for deleting `victim` while its deny relationship `relationship` still holds `survivors`.
    public static func deleteDenied(_ entity: EntitySchema, relationship: Int, victim: PersistentIdentifier, survivors: [PersistentIdentifier]) -> StrataError {
        let name = entity.relationships[relationship].name
        return StrataError(.deleteDenied, "Cannot delete \(victim): its '\(name)' still holds \(survivors.count) record(s) and the delete rule is deny. Delete or detach them first.", entity: entity.name, properties: [name], identifiers: [victim] + survivors)
    }

    // MARK: Relationship rules

    /// Whether relationship `r` of `entity` needs a check after a save (required to-one, bounded to-many).
    public static func needsCountCheck(_ entity: EntitySchema, _ r: Int) -> Bool {
        let relationship = entity.relationships[r]
        return (!relationship.isToMany && !relationship.isOptional) || relationship.minCount != nil || relationship.maxCount != nil
    }

    /// Checks that relationship `r` of a surviving record holding `count` targets keeps its rules.
    ///
    /// - Throws: `missingRequiredRelationship` for an empty required to-one, `relationshipCountViolation`
    ///   for a to-many outside its bounds.
    public static func checkCount(_ entity: EntitySchema, _ r: Int, count: Int, identifier: @autoclosure () -> PersistentIdentifier) throws {
        let relationship = entity.relationships[r]
        if !relationship.isToMany {
            guard count == 0, !relationship.isOptional else { return }
            throw StrataError(.missingRequiredRelationship, "'\(relationship.name)' is required; give \(identifier()) a target.", entity: entity.name, properties: [relationship.name], identifiers: [identifier()])
        }
        if let lo = relationship.minCount, count < lo {
            throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(identifier()) would hold \(count) record(s); at least \(lo) are required.", entity: entity.name, properties: [relationship.name], identifiers: [identifier()])
        }
        if let hi = relationship.maxCount, count > hi {
            throw StrataError(.relationshipCountViolation, "'\(relationship.name)' of \(identifier()) would hold \(count) record(s); at most \(hi) are allowed.", entity: entity.name, properties: [relationship.name], identifiers: [identifier()])
        }
    }

    /// Checks the relationship rules of the records a save changed, in the contract's order: by
    /// (entity in schema order, key) — stored records before inserts, whose keys are higher — and
    /// each record's relationships in declaration order; the first fault is thrown. Candidates may
    /// repeat and may name records the save deleted (skipped: `recordExists` is false).
    public static func checkRelationships<Host: SaveRuleHost>(_ candidates: [SaveRuleRecord], _ entities: [EntitySchema], host: inout Host) throws {
        guard !candidates.isEmpty else { return }
        let checked = entities.map { e in e.relationships.indices.filter { needsCountCheck(e, $0) } }
        var previous: SaveRuleRecord?
        for record in candidates.sorted() where record != previous {
            previous = record
            let rules = checked[record.entity]
            guard !rules.isEmpty, try host.recordExists(record.entity, record.key) else { continue }
            for r in rules {
                let count = try host.targetCount(record.entity, record.key, r)
                try checkCount(entities[record.entity], r, count: count, identifier: host.clientIdentifier(record.entity, record.key))
            }
        }
    }

    // MARK: Delete rules

    /// Applies the delete rules (store contract §3) to the records a save deletes, after its inserts
    /// and updates, against everything the save's state holds: cascades are followed (each record
    /// once, cycles end), then each victim in (entity, key) order has every relationship's rule
    /// applied to its targets that survive the save — deny fails with `deleteDenied` naming the
    /// victim and its survivors in key order; nullify and cascade make the survivors forget it;
    /// noAction makes only to-many sides forget it (a to-one keeps pointing at it, dangling).
    ///
    /// - Parameter requested: the records the request deletes, in request order (already checked
    ///   to be stored records; repeats are ignored).
    /// - Returns: every deleted record, cascades included, in (entity, key) order. The backend
    ///   removes them from its storage.
    public static func applyDeleteRules<Host: SaveRuleHost>(_ requested: [SaveRuleRecord], _ entities: [EntitySchema], host: inout Host) throws -> [SaveRuleRecord] {
        var deleted = Set<SaveRuleRecord>()
        var queue: [SaveRuleRecord] = []
        for victim in requested where deleted.insert(victim).inserted { queue.append(victim) }
        var next = 0
        while next < queue.count {
            let victim = queue[next]
            next += 1
            let entity = entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                let destination = entity.destinationIndices[r]
                for target in try host.currentTargets(victim.entity, victim.key, r) where try host.recordExists(destination, target) {
                    let record = SaveRuleRecord(entity: destination, key: target)
                    if deleted.insert(record).inserted { queue.append(record) }
                }
            }
        }
        // Rules apply in (entity, key) order, so a denied delete names the same record everywhere.
        queue.sort()
        for victim in queue {
            let entity = entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let destination = entity.destinationIndices[r]
                let inverse = entity.inverseIndices[r]
                var survivors: [Int64] = []
                for target in try host.currentTargets(victim.entity, victim.key, r)
                where !deleted.contains(SaveRuleRecord(entity: destination, key: target)) {
                    if try host.recordExists(destination, target) { survivors.append(target) }
                }
                guard !survivors.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    survivors.sort()
                    throw deleteDenied(entity, relationship: r, victim: host.clientIdentifier(victim.entity, victim.key), survivors: survivors.map { host.clientIdentifier(destination, $0) })
                case .nullify, .cascade:
                    for target in survivors { try host.forget(victim.key, in: destination, target, inverse) }
                case .noAction:
                    // A to-one that pointed at the deleted record keeps pointing at it (dangling, by
                    // request); a to-many never lists a deleted record, so it loses it as with nullify.
                    if entities[destination].relationshipIsToMany[inverse] {
                        for target in survivors { try host.forget(victim.key, in: destination, target, inverse) }
                    }
                }
            }
        }
        return queue
    }

    // MARK: Unique constraints

    /// The collision a failed save reports for one constraint, chosen as the contract says
    /// ("Which fault a save reports"): among the groups of records sharing the constraint's values
    /// after the save, the one whose offender has the lowest key; the record collided with is the
    /// member that held the values before the save (else the lowest key), the offender the lowest
    /// other key. `nil` when no group has two members.
    ///
    /// - Parameters:
    ///   - groups: the members of each group of records sharing values (a group may be listed twice).
    ///   - heldBefore: whether record `key` held group `g`'s values before the save.
    public static func uniqueCollision(_ groups: [[Int64]], heldBefore: (_ key: Int64, _ g: Int) throws -> Bool) rethrows -> (holder: Int64, offender: Int64)? {
        var best: (holder: Int64, offender: Int64)?
        for (g, group) in groups.enumerated() {
            let members = Array(Set(group)).sorted()
            guard members.count > 1 else { continue }
            let holder = try members.first { try heldBefore($0, g) } ?? members[0]
            let offender = members.first { $0 != holder }!
            if best == nil || offender < best!.offender { best = (holder, offender) }
        }
        return best
    }

    /// The unique violation of constraint `constraint` of `entity` (see `uniqueCollision`), as the
    /// error the save throws; `client` gives the identifier the client knows a record by.
    public static func uniqueViolation(_ entity: EntitySchema, constraint: Int, groups: [[Int64]], heldBefore: (_ key: Int64, _ g: Int) throws -> Bool, client: (Int64) -> PersistentIdentifier) rethrows -> StrataError {
        guard let (holder, offender) = try uniqueCollision(groups, heldBefore: heldBefore) else {
            return unnamedUniqueViolation(entity, constraint: constraint)
        }
        return uniqueViolation(entity, constraint: constraint, holder: client(holder), offender: client(offender))
    }
}

/// A record a save rule names: its entity's index in the schema and its primary key, ordered by
/// (entity, key) — the order the contract reports faults in.
public struct SaveRuleRecord: Hashable, Comparable, Sendable {
    /// The entity's index in the schema.
    public let entity: Int
    /// The record's primary key.
    public let key: Int64

    /// The record `key` of entity `entity`.
    public init(entity: Int, key: Int64) {
        self.entity = entity
        self.key = key
    }

    /// (entity, key) order.
    public static func < (a: Self, b: Self) -> Bool { (a.entity, a.key) < (b.entity, b.key) }
}

/// What the save rules (`SaveRules`) ask a backend's save about its records, in the save's current
/// state (the request's writes applied). The backend answers from its own storage; the rules decide.
public protocol SaveRuleHost {
    /// Whether the save's state holds record `key` of entity `entity` (not deleted, not unknown).
    mutating func recordExists(_ entity: Int, _ key: Int64) throws -> Bool
    /// The targets relationship `r` of the record holds now, in list order.
    mutating func currentTargets(_ entity: Int, _ key: Int64, _ r: Int) throws -> [Int64]
    /// How many targets relationship `r` of the record holds now (distinct; 0 or 1 for a to-one).
    mutating func targetCount(_ entity: Int, _ key: Int64, _ r: Int) throws -> Int
    /// Makes relationship `r` of record `key` (of entity `entity`) forget `victim`, a deleted record:
    /// a to-one pointing at it becomes empty, a to-many loses it. One side only: the victim goes.
    mutating func forget(_ victim: Int64, in entity: Int, _ key: Int64, _ r: Int) throws
    /// The identifier the client knows the record by (temporary for one the save inserts).
    func clientIdentifier(_ entity: Int, _ key: Int64) -> PersistentIdentifier
}

extension SaveRuleHost {
    /// The number of current targets.
    public mutating func targetCount(_ entity: Int, _ key: Int64, _ r: Int) throws -> Int {
        try currentTargets(entity, key, r).count
    }
}
