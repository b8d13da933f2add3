import Foundation
import Strata

/// The differential test's independent oracle: a deliberately plain implementation of the save
/// contract (docs/store-contract.md §1–5), written for clarity, not speed, sharing no code with the
/// shared engine or the rule home (`SaveRules`, `SaveValidation`) — it uses only the core's value
/// types, the schema and `StrataError`. Every differential run includes it, so a bug in the one
/// place every backend asks shows as a divergence from the oracle (docs/architecture.md, "One home
/// for each save rule").
///
/// Records are dictionaries by key, relationships arrays of keys (a to-one is zero or one key);
/// every save works on a copy and is kept only if no rule failed. It answers fetches only of a whole
/// entity in key order, with or without `identifierIn` (what the differential test needs to build
/// updates and to compare states); predicates and sorts are the fetch layer's, not a save rule.
final class DifferentialOracle: SuiteStore, @unchecked Sendable {
    /// One stored record: attribute values in the entity's order, and per relationship its targets.
    struct Record: Equatable {
        var attributes: [Value]
        var links: [[Int64]]
    }

    /// A record: its entity's index in the schema and its key.
    struct Ref: Hashable, Comparable {
        let entity: Int
        let key: Int64
        static func < (a: Ref, b: Ref) -> Bool { a.entity != b.entity ? a.entity < b.entity : a.key < b.key }
    }

    let schema: Schema
    let identifier = "oracle-\(UUID().uuidString)"
    var capabilities: StoreCapabilities { [.persistence, .orderedRelationships, .manyToMany] }
    /// The committed records, per entity.
    private(set) var tables: [[Int64: Record]]
    /// The next key per entity (keys start at 1 and are never reused).
    private(set) var nextKeys: [Int64]

    init(schema: Schema) {
        self.schema = schema
        tables = schema.entities.map { _ in [:] }
        nextKeys = schema.entities.map { _ in 1 }
    }

    /// A fetch the oracle does not model (a predicate other than `identifierIn`, a sort or a window).
    struct NotModelled: Error {}

    static func models(_ d: FetchDescriptor) -> Bool {
        guard d.sortBy.isEmpty, d.fetchLimit == nil, d.fetchOffset == 0 else { return false }
        switch d.predicate {
        case nil, .identifierIn?: return true
        default: return false
        }
    }

    func fetch(_ d: FetchDescriptor) throws -> [SuiteRecord] {
        guard Self.models(d) else { throw NotModelled() }
        guard let entity = schema.entity(named: d.entityName) else { throw StrataError(.unknownEntity, "oracle: no entity '\(d.entityName)'", entity: d.entityName) }
        var keys = tables[entity.index].keys.sorted()
        if case .identifierIn(let ids)? = d.predicate {
            let wanted = Set(ids.filter { $0.storeIdentifier == identifier && $0.entityName == entity.name && !$0.isTemporary }.map(\.primaryKey))
            keys = keys.filter { wanted.contains($0) }
        }
        return keys.map { record(Ref(entity: entity.index, key: $0), tables[entity.index][$0]!) }
    }

    func fetchCount(_ d: FetchDescriptor) throws -> Int { try fetch(d).count }
    func fetchIdentifiers(_ d: FetchDescriptor) throws -> [PersistentIdentifier] { try fetch(d).map(\.id) }

    func snapshot(for id: PersistentIdentifier) throws -> SuiteRecord? {
        guard id.storeIdentifier == identifier, let entity = schema.entity(named: id.entityName), let r = tables[entity.index][id.primaryKey] else { return nil }
        return record(Ref(entity: entity.index, key: id.primaryKey), r)
    }

    func id(_ ref: Ref) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: identifier, entityName: schema.entities[ref.entity].name, primaryKey: ref.key)
    }

    func record(_ ref: Ref, _ r: Record) -> SuiteRecord {
        let entity = schema.entities[ref.entity]
        let relationships: [RelationshipValue] = entity.relationships.enumerated().map { i, rel in
            let destination = schema.entity(named: rel.destination)!.index
            let targets = r.links[i].map { id(Ref(entity: destination, key: $0)) }
            return rel.isToMany ? .toMany(targets) : .toOne(targets.first)
        }
        return SuiteRecord(id: id(ref), entity: entity, attributes: r.attributes, relationships: relationships)
    }

    func save(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord], updatedProperties: [PersistentIdentifier: UpdatedProperties]) throws -> SuiteSaveResult {
        guard updatedProperties.isEmpty else { throw NotModelled() }
        var attempt = OracleSave(oracle: self)
        let result = try attempt.run(inserted: inserted, updated: updated, deleted: deleted)
        tables = attempt.work
        nextKeys = attempt.nextKeys
        return result
    }
}

/// One save on the oracle, in the contract's phases (store contract §5, "Which fault a save
/// reports"): the request, writes and inverses, delete rules, relationship rules, unique constraints.
struct OracleSave {
    typealias Ref = DifferentialOracle.Ref
    typealias Record = DifferentialOracle.Record

    let oracle: DifferentialOracle
    let schema: Schema
    /// The state before the save, and the state the save builds.
    let before: [[Int64: Record]]
    var work: [[Int64: Record]]
    var nextKeys: [Int64]
    /// Temporary identifier → the record it becomes, and back.
    var insertedAs: [PersistentIdentifier: Ref] = [:]
    var temporaryOf: [Ref: PersistentIdentifier] = [:]
    /// Records whose relationships the save changed as a side effect (an inverse, a nullify).
    var touched = Set<Ref>()

    init(oracle: DifferentialOracle) {
        self.oracle = oracle
        schema = oracle.schema
        before = oracle.tables
        work = oracle.tables
        nextKeys = oracle.nextKeys
    }

    /// A record written by the request, with the links it sent (resolved, duplicates dropped).
    struct Written {
        let ref: Ref
        let isInsert: Bool
        let attributes: [Value]
        let sent: [[Int64]]
    }

    mutating func run(inserted: [SuiteRecord], updated: [SuiteRecord], deleted: [SuiteRecord]) throws -> SuiteSaveResult {
        // 1. The request: inserts' identifiers first, then each insert's values and references, then
        //    updates, then deletes.
        var writes: [Written] = []
        var insertRefs: [Ref] = []
        for snapshot in inserted {
            let entity = try entityOf(snapshot)
            guard snapshot.id.isTemporary else { throw error(.invalidRequest, "an insert must carry a temporary identifier", entity, ids: [snapshot.id]) }
            guard insertedAs[snapshot.id] == nil else { throw error(.invalidRequest, "inserted twice", entity, ids: [snapshot.id]) }
            let ref = Ref(entity: entity.index, key: nextKeys[entity.index])
            nextKeys[entity.index] += 1
            insertedAs[snapshot.id] = ref
            temporaryOf[ref] = snapshot.id
            insertRefs.append(ref)
        }
        for (n, snapshot) in inserted.enumerated() {
            let entity = schema.entities[insertRefs[n].entity]
            try checkValues(snapshot, entity)
            let sent = try references(snapshot, entity, stored: nil)
            writes.append(Written(ref: insertRefs[n], isInsert: true, attributes: snapshot.attributes, sent: sent))
        }
        var updatedRefs = Set<Ref>()
        for snapshot in updated {
            let entity = try entityOf(snapshot)
            let ref = try storedRecord(snapshot.id, entity, verb: "update")
            guard updatedRefs.insert(ref).inserted else { throw error(.invalidRequest, "updated twice", entity, ids: [snapshot.id]) }
            try checkValues(snapshot, entity)
            let sent = try references(snapshot, entity, stored: before[ref.entity][ref.key]!)
            writes.append(Written(ref: ref, isInsert: false, attributes: snapshot.attributes, sent: sent))
        }
        var deleteRefs: [Ref] = []
        for snapshot in deleted {
            let entity = try entityOf(snapshot)
            deleteRefs.append(try storedRecord(snapshot.id, entity, verb: "delete"))
        }

        // 2. Writes: attributes, then every relationship change as edges, in request order.
        for w in writes {
            let entity = schema.entities[w.ref.entity]
            if w.isInsert {
                work[w.ref.entity][w.ref.key] = Record(attributes: w.attributes, links: entity.relationships.map { _ in [] })
            } else {
                work[w.ref.entity][w.ref.key]!.attributes = w.attributes
            }
        }
        for w in writes {
            let entity = schema.entities[w.ref.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let stored = w.isInsert ? [] : before[w.ref.entity][w.ref.key]!.links[r]
                let sent = w.sent[r]
                if stored == sent { continue }
                for target in stored where !sent.contains(target) { removeEdge(w.ref, r, target) }
                for target in sent where !stored.contains(target) { addEdge(w.ref, r, target) }
                if relationship.isOrdered {
                    let now = work[w.ref.entity][w.ref.key]!.links[r]
                    let ordered = sent.filter { now.contains($0) } + now.filter { !sent.contains($0) }
                    if ordered != now {
                        work[w.ref.entity][w.ref.key]!.links[r] = ordered
                        touched.insert(w.ref)
                    }
                }
            }
        }

        // 3. Delete rules.
        var doomed: [Ref] = []
        for ref in deleteRefs where !doomed.contains(ref) { doomed.append(ref) }
        var i = 0
        while i < doomed.count {
            let victim = doomed[i]
            i += 1
            let entity = schema.entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                for target in work[victim.entity][victim.key]!.links[r] {
                    let t = Ref(entity: destination(entity, r), key: target)
                    if work[t.entity][t.key] != nil && !doomed.contains(t) { doomed.append(t) }
                }
            }
        }
        for victim in doomed.sorted() {
            let entity = schema.entities[victim.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let d = destination(entity, r)
                let survivors = work[victim.entity][victim.key]!.links[r].filter { key in
                    work[d][key] != nil && !doomed.contains(Ref(entity: d, key: key))
                }
                if survivors.isEmpty { continue }
                let inverse = inverseIndex(entity, r)
                let inverseIsToMany = schema.entities[d].relationships[inverse].isToMany
                switch relationship.deleteRule {
                case .deny:
                    let named = [client(victim)] + survivors.sorted().map { client(Ref(entity: d, key: $0)) }
                    throw error(.deleteDenied, "deny", entity, properties: [relationship.name], ids: named)
                case .nullify, .cascade:
                    for key in survivors { dropFromSide(Ref(entity: d, key: key), inverse, victim.key) }
                case .noAction:
                    if inverseIsToMany {
                        for key in survivors { dropFromSide(Ref(entity: d, key: key), inverse, victim.key) }
                    }
                }
            }
        }
        for victim in doomed { work[victim.entity][victim.key] = nil }

        // 4. Relationship rules over every changed record that survives, by (entity, key).
        let changed = Set(writes.map(\.ref)).union(touched).filter { work[$0.entity][$0.key] != nil }
        for ref in changed.sorted() {
            let entity = schema.entities[ref.entity]
            for (r, relationship) in entity.relationships.enumerated() {
                let count = work[ref.entity][ref.key]!.links[r].count
                if !relationship.isToMany && !relationship.isOptional && count == 0 {
                    throw error(.missingRequiredRelationship, "required", entity, properties: [relationship.name], ids: [client(ref)])
                }
                if relationship.isToMany, let lo = relationship.minCount, count < lo {
                    throw error(.relationshipCountViolation, "too few", entity, properties: [relationship.name], ids: [client(ref)])
                }
                if relationship.isToMany, let hi = relationship.maxCount, count > hi {
                    throw error(.relationshipCountViolation, "too many", entity, properties: [relationship.name], ids: [client(ref)])
                }
            }
        }

        // 5. Unique constraints: every pair of records sharing values, the lowest offender first.
        for entity in schema.entities {
            for constraint in entity.uniqueConstraints {
                var groups: [[UniquePart]: [Int64]] = [:]
                for (key, record) in work[entity.index] {
                    if let value = uniqueValue(constraint, entity, record) { groups[value, default: []].append(key) }
                }
                var best: (holder: Int64, offender: Int64)?
                for (value, members) in groups where members.count > 1 {
                    let sorted = members.sorted()
                    let holder = sorted.first { key in before[entity.index][key].flatMap { uniqueValue(constraint, entity, $0) } == value } ?? sorted[0]
                    let offender = sorted.first { $0 != holder }!
                    if best == nil || offender < best!.offender { best = (holder, offender) }
                }
                if let best {
                    let names = constraint.map { entity.name(of: $0) }
                    let named = [client(Ref(entity: entity.index, key: best.holder)), client(Ref(entity: entity.index, key: best.offender))]
                    throw error(.uniqueConstraintViolation, "unique", entity, properties: names, ids: named)
                }
            }
        }

        // The result.
        var remapped = IdentifierRemapping()
        for (n, snapshot) in inserted.enumerated() { _ = remapped.insert(oracle.id(insertRefs[n]), for: snapshot.id) }
        var result: [PersistentIdentifier: SuiteRecord] = [:]
        let written = Dictionary(writes.map { ($0.ref, $0) }, uniquingKeysWith: { a, _ in a })
        for ref in changed {
            let entity = schema.entities[ref.entity]
            let now = work[ref.entity][ref.key]!
            if let w = written[ref] {
                let same = entity.relationships.enumerated().allSatisfy { r, relationship in
                    relationship.isToMany && !relationship.isOrdered ? Set(now.links[r]) == Set(w.sent[r]) : now.links[r] == w.sent[r]
                }
                if same { continue }
            }
            result[oracle.id(ref)] = oracle.record(ref, now)
        }
        return SuiteSaveResult(remapped: remapped, deleted: Set(doomed.map(oracle.id)), changed: result)
    }

    // MARK: The request

    func entityOf(_ snapshot: SuiteRecord) throws -> EntitySchema {
        guard let entity = schema.entity(named: snapshot.entity.name), snapshot.id.entityName == entity.name else {
            throw StrataError(.unknownEntity, "oracle: unknown entity '\(snapshot.entity.name)'", entity: snapshot.entity.name)
        }
        return entity
    }

    /// The stored record an update or delete names: permanent, this store's, held before the save.
    func storedRecord(_ id: PersistentIdentifier, _ entity: EntitySchema, verb: String) throws -> Ref {
        guard !id.isTemporary, id.storeIdentifier == oracle.identifier, before[entity.index][id.primaryKey] != nil else {
            throw error(.unknownIdentifier, "cannot \(verb) a record the store does not hold", entity, ids: [id])
        }
        return Ref(entity: entity.index, key: id.primaryKey)
    }

    func checkValues(_ snapshot: SuiteRecord, _ entity: EntitySchema) throws {
        guard snapshot.attributes.count == entity.attributes.count, snapshot.relationships.count == entity.relationships.count else {
            throw error(.typeMismatch, "wrong number of values", entity, ids: [snapshot.id])
        }
        for (i, attribute) in entity.attributes.enumerated() {
            let value = snapshot.attributes[i]
            if value.isNull {
                if !attribute.isOptional { throw error(.missingRequiredValue, "required", entity, properties: [attribute.name], ids: [snapshot.id]) }
            } else if value.type != attribute.type {
                throw error(.typeMismatch, "wrong type", entity, properties: [attribute.name], ids: [snapshot.id])
            }
        }
    }

    /// The keys each relationship value names, checked in declaration and list order. A reference
    /// the stored record did not hold must name a record held before the save or inserted by it.
    func references(_ snapshot: SuiteRecord, _ entity: EntitySchema, stored: Record?) throws -> [[Int64]] {
        var result: [[Int64]] = []
        for (r, relationship) in entity.relationships.enumerated() {
            let value = snapshot.relationships[r]
            let ids: [PersistentIdentifier]
            switch (value, relationship.isToMany) {
            case (.toOne(let id), false): ids = id.map { [$0] } ?? []
            case (.toMany(let list), true): ids = list
            default: throw error(.typeMismatch, "wrong shape", entity, properties: [relationship.name], ids: [snapshot.id])
            }
            var keys: [Int64] = []
            for id in ids {
                let key: Int64
                if id.isTemporary {
                    guard let ref = insertedAs[id] else { throw error(.unknownIdentifier, "temporary not inserted", entity, properties: [relationship.name], ids: [id]) }
                    guard schema.entities[ref.entity].name == relationship.destination else { throw error(.typeMismatch, "wrong entity", entity, properties: [relationship.name], ids: [id]) }
                    key = ref.key
                } else {
                    guard id.storeIdentifier == oracle.identifier else { throw error(.unknownIdentifier, "another store's", entity, properties: [relationship.name], ids: [id]) }
                    guard id.entityName == relationship.destination else { throw error(.typeMismatch, "wrong entity", entity, properties: [relationship.name], ids: [id]) }
                    key = id.primaryKey
                    let heldAlready = stored?.links[r].contains(key) ?? false
                    if !heldAlready && before[destination(entity, r)][key] == nil {
                        throw error(.unknownIdentifier, "dangling", entity, properties: [relationship.name], ids: [id, snapshot.id])
                    }
                }
                if !keys.contains(key) { keys.append(key) }
            }
            result.append(keys)
        }
        return result
    }

    // MARK: Edges

    func destination(_ entity: EntitySchema, _ r: Int) -> Int {
        schema.entity(named: entity.relationships[r].destination)!.index
    }

    func inverseIndex(_ entity: EntitySchema, _ r: Int) -> Int {
        let d = schema.entities[destination(entity, r)]
        return d.relationships.firstIndex { $0.name == entity.relationships[r].inverse }!
    }

    /// Removes the edge between `ref` (relationship `r`) and `target` on both sides.
    mutating func removeEdge(_ ref: Ref, _ r: Int, _ target: Int64) {
        let entity = schema.entities[ref.entity]
        dropFromSide(ref, r, target)
        dropFromSide(Ref(entity: destination(entity, r), key: target), inverseIndex(entity, r), ref.key)
    }

    /// Adds the edge between `ref` (relationship `r`) and `target` on both sides.
    mutating func addEdge(_ ref: Ref, _ r: Int, _ target: Int64) {
        let entity = schema.entities[ref.entity]
        putOnSide(ref, r, target)
        putOnSide(Ref(entity: destination(entity, r), key: target), inverseIndex(entity, r), ref.key)
    }

    /// Relationship `r` of `ref` no longer holds `key` (one side).
    mutating func dropFromSide(_ ref: Ref, _ r: Int, _ key: Int64) {
        guard let links = work[ref.entity][ref.key]?.links[r], links.contains(key) else { return }
        work[ref.entity][ref.key]!.links[r] = links.filter { $0 != key }
        touched.insert(ref)
    }

    /// Relationship `r` of `ref` holds `key` (one side); a to-one's previous target loses `ref`.
    mutating func putOnSide(_ ref: Ref, _ r: Int, _ key: Int64) {
        guard let links = work[ref.entity][ref.key]?.links[r] else { return }
        let entity = schema.entities[ref.entity]
        if entity.relationships[r].isToMany {
            guard !links.contains(key) else { return }
            work[ref.entity][ref.key]!.links[r].append(key)
        } else {
            guard links != [key] else { return }
            if let previous = links.first {
                dropFromSide(Ref(entity: destination(entity, r), key: previous), inverseIndex(entity, r), ref.key)
            }
            work[ref.entity][ref.key]!.links[r] = [key]
        }
        touched.insert(ref)
    }

    // MARK: Unique values

    /// One part of a unique value, compared as the contract says: text and data by bytes, numbers
    /// numerically (−0 = +0).
    enum UniquePart: Hashable {
        case bytes([UInt8])
        case integer(Int64)
        case number(Double)
    }

    /// The record's value for a constraint, or `nil` if any part is `nil` or NaN (never collides).
    func uniqueValue(_ constraint: [PropertyReference], _ entity: EntitySchema, _ record: Record) -> [UniquePart]? {
        var parts: [UniquePart] = []
        for property in constraint {
            switch property {
            case .relationship(let r):
                guard let key = record.links[r].first else { return nil }
                parts.append(.integer(key))
            case .attribute(let i):
                switch record.attributes[i] {
                case .null: return nil
                case .bool(let b): parts.append(.integer(b ? 1 : 0))
                case .int(let n): parts.append(.integer(n))
                case .double(let d):
                    if d.isNaN { return nil }
                    parts.append(.number(d == 0 ? 0 : d))
                case .date(let t): parts.append(.number(t.timeIntervalSinceReferenceDate))
                case .string(let s): parts.append(.bytes(Array(s.utf8)))
                case .data(let d): parts.append(.bytes(Array(d)))
                case .uuid(let u): parts.append(.bytes(Array(u.uuidString.utf8)))
                case .url(let u): parts.append(.bytes(Array(u.absoluteString.utf8)))
                }
            }
        }
        return parts
    }

    // MARK: Errors

    /// The identifier the client knows a record by: temporary for one this save inserts.
    func client(_ ref: Ref) -> PersistentIdentifier { temporaryOf[ref] ?? oracle.id(ref) }

    func error(_ code: StrataError.Code, _ what: String, _ entity: EntitySchema, properties: [String] = [], ids: [PersistentIdentifier]) -> StrataError {
        StrataError(code, "oracle: \(what)", entity: entity.name, properties: properties, identifiers: ids)
    }
}
