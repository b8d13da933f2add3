import Foundation
import Strata

/// A record a differential run refers to: one of the records inserted so far (by position, the same
/// on every backend, deleted ones included so saves can name them on purpose), or one inserted by
/// the save being built.
enum RecordRef: Hashable {
    case existing(Int)
    case new(Int)
}

/// A relationship value in backend-neutral form.
enum RefValue: Hashable {
    case one(RecordRef?)
    case many([RecordRef])
}

/// One snapshot of a save, before it is made for a particular backend.
struct PlannedRecord {
    var entity: String
    /// The record named (for an update or delete); `nil` for an insert.
    var ref: RecordRef?
    var values: [String: Value]
    var links: [String: RefValue]
}

/// One step of a run.
enum PlannedOperation {
    case save(inserted: [PlannedRecord], updated: [PlannedRecord], deleted: [RecordRef])
    case fetch(FetchPlan)
    case reopen
}

/// A fetch with its identifier-valued parts still as references.
struct FetchPlan {
    var entity: String
    var predicate: PlannedPredicate?
    var sortBy: [SortKey]
    var limit: Int?
    var offset: Int
}

/// A predicate whose identifier constants are references, resolved per backend.
indirect enum PlannedPredicate {
    case plain(FetchPredicate)
    case targetIs(String, RecordRef?)
    case contains(String, RecordRef)
    case identifierIn([RecordRef])
    case and([PlannedPredicate])
    case or([PlannedPredicate])
    case not(PlannedPredicate)
}

/// Makes random operations over awkward values: nil, NaN, −0, extremes, mixed-case and non-ASCII
/// text, `%` and `_`; saves that break rules on purpose (required values, dangling references,
/// unique collisions, denied deletes, negative windows).
struct DifferentialGenerator {
    var rng: SeededGenerator
    /// Entity of every record inserted so far, by position.
    var entities: [String] = []

    static let texts: [String] = ["", "a", "A", "apple", "Apple", "APPLE", "\u{E9}cole", "\u{C9}COLE", "caf\u{E9}", "cafe\u{301}", "%", "_", "a_b", "axb", "100%", "\\", "stra\u{DF}e", "\u{3A3}\u{39F}\u{3A6}", "zz", " x "]
    static let doubles: [Double] = [.nan, -0.0, 0, 1.5, -1, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 2]
    static let ints: [Int64] = [0, 1, -1, 2, .min, .max, 42]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    mutating func text() -> Value { .string(pick(Self.texts)) }
    mutating func optional(_ make: (inout Self) -> Value) -> Value { chance(20) ? .null : make(&self) }
    mutating func double() -> Value { .double(pick(Self.doubles)) }
    mutating func int() -> Value { .int(pick(Self.ints)) }

    /// A value for an attribute, sometimes of the wrong kind or nil where required (invalid on purpose).
    mutating func value(_ attribute: String, of entity: String) -> Value {
        if chance(2) { return .int(7) }  // wrong type, or right for an int
        switch (entity, attribute) {
        case ("Folder", "name"), ("Tag", "label"), ("Note", "title"): return chance(2) ? .null : text()
        case ("Folder", "rank"), ("Note", "count"): return optional { $0.int() }
        case ("Note", "score"), ("Tag", "weight"): return optional { $0.double() }
        case ("Note", "pinned"): return optional { .bool($0.chance(50)) }
        default: return optional { $0.text() }
        }
    }

    static let attributes: [String: [String]] = ["Folder": ["name", "rank"], "Note": ["title", "body", "score", "pinned", "count"], "Tag": ["label", "weight"]]

    /// A reference to a record of `entity`: mostly an existing one, sometimes one new in this save.
    mutating func ref(_ entity: String, newOnes: [(Int, String)]) -> RecordRef? {
        let fresh = newOnes.filter { $0.1 == entity }
        if !fresh.isEmpty && chance(25) { return .new(pick(fresh).0) }
        let known = entities.indices.filter { entities[$0] == entity }
        if known.isEmpty || chance(5) { return fresh.isEmpty ? nil : .new(pick(fresh).0) }
        return .existing(pick(known))
    }

    mutating func links(_ entity: String, newOnes: [(Int, String)]) -> [String: RefValue] {
        var links: [String: RefValue] = [:]
        func many(_ g: inout Self, _ target: String) -> RefValue {
            .many((0..<Int.random(in: 0...3, using: &g.rng)).compactMap { _ in g.ref(target, newOnes: newOnes) })
        }
        switch entity {
        case "Folder":
            if chance(40) { links["notes"] = many(&self, "Note") }
        case "Note":
            if chance(70) { links["folder"] = .one(chance(15) ? nil : ref("Folder", newOnes: newOnes)) }
            if chance(40) { links["tags"] = many(&self, "Tag") }
            if chance(30) { links["parent"] = .one(chance(30) ? nil : ref("Note", newOnes: newOnes)) }
            if chance(15) { links["children"] = many(&self, "Note") }
        default:
            if chance(30) { links["notes"] = many(&self, "Note") }
        }
        return links
    }

    /// The next operation: mostly saves and fetches, now and then a reopen.
    mutating func next() -> PlannedOperation {
        let roll = Int.random(in: 0..<100, using: &rng)
        if roll < 3 { return .reopen }
        if roll < 45 { return .fetch(fetch()) }
        return save()
    }

    mutating func save() -> PlannedOperation {
        var inserted: [PlannedRecord] = []
        var newOnes: [(Int, String)] = []
        for n in 0..<Int.random(in: 0...3, using: &rng) {
            newOnes.append((n, pick(["Folder", "Note", "Note", "Tag"])))
        }
        for (_, entity) in newOnes {
            var values: [String: Value] = [:]
            for a in Self.attributes[entity]! { values[a] = value(a, of: entity) }
            inserted.append(PlannedRecord(entity: entity, ref: nil, values: values, links: links(entity, newOnes: newOnes)))
        }
        var updated: [PlannedRecord] = []
        var seen = Set<Int>()
        for _ in 0..<(entities.isEmpty ? 0 : Int.random(in: 0...2, using: &rng)) {
            let handle = Int.random(in: 0..<entities.count, using: &rng)
            guard seen.insert(handle).inserted || chance(10) else { continue }
            let entity = entities[handle]
            var values: [String: Value] = [:]
            for a in Self.attributes[entity]! where chance(40) { values[a] = value(a, of: entity) }
            updated.append(PlannedRecord(entity: entity, ref: .existing(handle), values: values, links: links(entity, newOnes: newOnes)))
        }
        var deleted: [RecordRef] = []
        if !entities.isEmpty && chance(25) { deleted.append(.existing(Int.random(in: 0..<entities.count, using: &rng))) }
        if !newOnes.isEmpty && chance(3) { deleted.append(.new(0)) }
        return .save(inserted: inserted, updated: updated, deleted: deleted)
    }

    mutating func constant(_ attribute: String, _ entity: String) -> Value {
        chance(10) ? .null : value(attribute, of: entity)
    }

    mutating func predicate(_ entity: String, depth: Int = 0) -> PlannedPredicate {
        let attributes = Self.attributes[entity]!
        let roll = Int.random(in: 0..<100, using: &rng)
        if depth < 2 && roll < 15 {
            let parts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in predicate(entity, depth: depth + 1) }
            return chance(50) ? .and(parts) : .or(parts)
        }
        if depth < 2 && roll < 20 { return .not(predicate(entity, depth: depth + 1)) }
        let attribute = pick(attributes)
        switch roll {
        case ..<50:
            let op = pick([ComparisonOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
            return .plain(.compare(PropertyPath(stringLiteral: attribute), op, constant(attribute, entity)))
        case ..<60: return .plain(.isNil(PropertyPath(stringLiteral: attribute)))
        case ..<72:
            let textual = attributes.filter { ["name", "label", "title", "body"].contains($0) }
            return .plain(.text(PropertyPath(stringLiteral: pick(textual)), pick([.contains, .hasPrefix, .hasSuffix]), pick(Self.texts), caseInsensitive: chance(50)))
        case ..<78: return .plain(.isIn(PropertyPath(stringLiteral: attribute), (0..<Int.random(in: 0...3, using: &rng)).map { _ in constant(attribute, entity) }))
        case ..<84 where entity == "Note": return .targetIs("folder", chance(20) ? nil : ref("Folder", newOnes: []))
        case ..<88 where entity == "Note": return .plain(.compare("folder.name", pick([.equal, .less, .greater]), text()))
        case ..<92 where entity != "Folder":
            return ref(entity == "Note" ? "Tag" : "Note", newOnes: []).map { .contains(entity == "Note" ? "tags" : "notes", $0) } ?? .plain(.constant(true))
        case ..<96: return .identifierIn((0..<Int.random(in: 0...3, using: &rng)).compactMap { _ in ref(entity, newOnes: []) })
        default: return .plain(.constant(chance(50)))
        }
    }

    mutating func fetch() -> FetchPlan {
        let entity = pick(["Folder", "Note", "Note", "Tag"])
        var sort: [SortKey] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let path = entity == "Note" && chance(15) ? "folder.name" : pick(Self.attributes[entity]!)
            sort.append(SortKey(PropertyPath(stringLiteral: path), order: chance(50) ? .ascending : .descending))
        }
        let limit: Int? = chance(50) ? nil : Int.random(in: -1...5, using: &rng)
        let offset = chance(60) ? 0 : Int.random(in: (chance(5) ? -1 : 0)...4, using: &rng)
        return FetchPlan(entity: entity, predicate: chance(80) ? predicate(entity) : nil, sortBy: sort, limit: limit, offset: offset)
    }
}
