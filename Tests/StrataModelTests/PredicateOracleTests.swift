import Foundation
import StrataModel
import Testing

/// The model layer against an oracle: random `#Predicate`s and `SortDescriptor`s over random data,
/// each store's answer through `ModelContext.fetch` compared with Foundation's own
/// `Predicate.evaluate` over the same objects in memory, and with Swift's sort of them.
///
/// The short form runs `STRATA_ORACLE_CASES` (default 300) predicates, sorts and unsaved-change
/// predicates per backend in `make test`; `make model-difftest` runs 10,000 of each
/// (docs/models.md, "The predicate oracle"). `STRATA_ORACLE_SEED` replays another seed.
@Suite struct PredicateOracleTests {
    static let cases = Int(ProcessInfo.processInfo.environment["STRATA_ORACLE_CASES"] ?? "") ?? 300
    static let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_ORACLE_SEED"] ?? "") ?? 1
    /// Predicates asked of one store before the next store of new random data.
    static let casesPerStore = 100
    static let itemsPerStore = 40

    /// Runs `body` on fresh random stores until `cases` cases ran, collecting disagreements.
    static func run(_ backend: ModelBackend, _ body: (OracleStore, inout OracleRandom, inout [String]) throws -> Void) throws -> [String] {
        var disagreements: [String] = []
        var done = 0, batch: UInt64 = 0
        while done < cases {
            var random = OracleRandom(seed: seed &* 1_000_003 &+ batch)
            let store = try OracleStore(backend, items: itemsPerStore, random: &random)
            try body(store, &random, &disagreements)
            done += casesPerStore
            batch += 1
        }
        return disagreements
    }

    /// The store's answer and the oracle's, as identifiers, or the store's refusal.
    /// Returns whether the predicate discriminated (matched some objects but not all), so a run can
    /// show its predicates are not trivially true or false.
    @discardableResult
    static func check(_ condition: GeneratedCondition, _ context: ModelContext, _ objects: [OracleItem], seed: String, into disagreements: inout [String]) -> Bool {
        let predicate = condition.predicate
        let expected: [PersistentIdentifier]
        do {
            expected = try objects.filter { try predicate.evaluate($0) }.map(\.persistentModelID)
        } catch {
            disagreements.append("\(seed) evaluate threw for \(condition.text): \(error)")
            return false
        }
        do {
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.persistentModelID)
            if fetched != expected {
                let names = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($1.persistentModelID, "#\($0)") })
                disagreements.append("\(seed) \(condition.text): store \(fetched.map { names[$0] ?? "?" }), evaluate \(expected.map { names[$0] ?? "?" })")
            }
            let count = try context.fetchCount(FetchDescriptor(predicate: predicate))
            if count != expected.count { disagreements.append("\(seed) \(condition.text): fetchCount \(count), evaluate \(expected.count)") }
        } catch {
            disagreements.append("\(seed) \(condition.text): the store refused or failed: \(error)")
        }
        return !expected.isEmpty && expected.count < objects.count
    }

    /// A random sort (one to three keys), maybe a predicate and a window: the store's order
    /// against Swift's sort of the matching objects, ties in `objects`' order (primary key, then
    /// unsaved inserts in insertion order).
    static func checkSort(_ generator: inout PredicateGenerator, _ context: ModelContext, _ objects: [OracleItem], seed: String, into disagreements: inout [String]) {
        let keys = (0..<Int.random(in: 1...3, using: &generator.random)).map { _ in GeneratedSortKey.random(&generator.random) }
        let condition: GeneratedCondition? = generator.random.chance(40) ? generator.condition(depth: 1) : nil
        var descriptor = FetchDescriptor<OracleItem>(predicate: condition?.predicate, sortBy: keys.map(\.descriptor))
        let offset: Int? = generator.random.chance(30) ? Int.random(in: 0...45, using: &generator.random) : nil
        let limit: Int? = generator.random.chance(40) ? Int.random(in: 0...20, using: &generator.random) : nil
        descriptor.fetchOffset = offset
        descriptor.fetchLimit = limit
        let text = "\(seed) \(keys.map(\.text)) where \(condition?.text ?? "true") offset \(offset.map(String.init) ?? "-") limit \(limit.map(String.init) ?? "-")"
        let names = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($1.persistentModelID, "#\($0)") })
        do {
            let matching = try condition.map { c in try objects.filter { try c.predicate.evaluate($0) } } ?? objects
            let sorted = matching.enumerated().sorted { a, b in
                for key in keys {
                    let c = key.compare(a.element, b.element)
                    if c != 0 { return c < 0 }
                }
                return a.offset < b.offset
            }.map(\.element.persistentModelID)
            let window = Array(sorted.dropFirst(offset ?? 0).prefix(limit ?? Int.max))
            let fetched = try context.fetch(descriptor).map(\.persistentModelID)
            if fetched != window {
                disagreements.append("\(text): store \(fetched.map { names[$0] ?? "?" }), Swift \(window.map { names[$0] ?? "?" })")
            }
            let count = try context.fetchCount(descriptor)
            if count != window.count { disagreements.append("\(text): fetchCount \(count), Swift \(window.count)") }
        } catch {
            disagreements.append("\(text): \(error)")
        }
    }

    static func report(_ disagreements: [String], _ what: String) -> Comment {
        Comment(rawValue: "\(disagreements.count) of \(cases) \(what) disagree (seed \(seed)):\n" + disagreements.prefix(15).joined(separator: "\n"))
    }

    @Test("Random predicates: the store agrees with Predicate.evaluate", arguments: ModelBackend.all)
    func predicates(_ backend: ModelBackend) throws {
        var discriminating = 0
        let disagreements = try Self.run(backend) { store, random, disagreements in
            let context = ModelContext(store.container)
            let (objects, groups, labels) = try store.loaded(context)
            var generator = PredicateGenerator(random: random, groups: groups, labels: labels, pending: false)
            for n in 0..<Self.casesPerStore {
                if Self.check(generator.condition(), context, objects, seed: "[\(n)]", into: &disagreements) { discriminating += 1 }
            }
            random = generator.random
        }
        #expect(disagreements.isEmpty, Self.report(disagreements, "predicates on \(backend)"))
        #expect(discriminating * 2 > Self.cases, "only \(discriminating) of \(Self.cases) predicates matched some objects but not all")
    }

    @Test("Random predicates, sorts and windows with unsaved changes: the context agrees with Predicate.evaluate and Swift's sort", arguments: ModelBackend.all)
    func predicatesOverUnsavedChanges(_ backend: ModelBackend) throws {
        let disagreements = try Self.run(backend) { store, random, disagreements in
            let context = ModelContext(store.container)
            let (stored, groups, labels) = try store.loaded(context)
            var objects = stored
            // Unsaved: some items changed, two deleted, three inserted (after the stored ones in an unsorted fetch).
            for item in objects where random.chance(20) {
                let other = OracleStore.randomItem(&random)
                item.name = other.name
                item.count = other.count
                item.score = other.score
                item.note = other.note
                item.bonus = other.bonus
                item.flag.toggle()
                item.group = random.chance(30) ? nil : random.pick(groups)
                item.labels = labels.filter { _ in random.chance(30) }
            }
            for _ in 0..<2 {
                let gone = objects.remove(at: Int.random(in: 0..<objects.count, using: &random))
                context.delete(gone)
            }
            for _ in 0..<3 {
                let item = OracleStore.randomItem(&random)
                context.insert(item)
                item.group = random.chance(30) ? nil : random.pick(groups)
                item.labels = labels.filter { _ in random.chance(30) }
                objects.append(item)
            }
            var generator = PredicateGenerator(random: random, groups: groups, labels: labels, pending: true)
            for n in 0..<Self.casesPerStore {
                if generator.random.chance(30) {
                    Self.checkSort(&generator, context, objects, seed: "[\(n)]", into: &disagreements)
                } else {
                    Self.check(generator.condition(), context, objects, seed: "[\(n)]", into: &disagreements)
                }
            }
            random = generator.random
        }
        #expect(disagreements.isEmpty, Self.report(disagreements, "predicates over unsaved changes on \(backend)"))
    }

    @Test("Random sorts and windows: the store agrees with Swift's sort", arguments: ModelBackend.all)
    func sorts(_ backend: ModelBackend) throws {
        let disagreements = try Self.run(backend) { store, random, disagreements in
            let context = ModelContext(store.container)
            let (objects, groups, labels) = try store.loaded(context)
            var generator = PredicateGenerator(random: random, groups: groups, labels: labels, pending: false)
            for n in 0..<Self.casesPerStore {
                Self.checkSort(&generator, context, objects, seed: "[\(n)]", into: &disagreements)
            }
            random = generator.random
        }
        #expect(disagreements.isEmpty, Self.report(disagreements, "sorts on \(backend)"))
    }
}
