import Foundation
import StrataModel

/// The models the predicate oracle (`PredicateOracleTests`) runs on: items in groups, with labels.
/// Every kind of value a `#Predicate` can meet: strings, optional strings, `Int` and `Double`
/// (indexed, so range comparisons can run from an index), an optional `Int`, dates, a `Bool`, enums
/// with raw values (one optional), a to-one that can be empty and a many-to-many.
@Model final class OracleItem {
    var name: String
    var note: String?
    var count: Int
    var score: Double
    var bonus: Int?
    var when: Date
    var flag: Bool
    var level: OracleLevel
    var kind: OracleKind?
    var group: OracleGroup?
    @Relationship(inverse: \OracleLabel.items) var labels: [OracleLabel] = []
    #Index<OracleItem>([\.count], [\.score], [\.name], [\.when])

    init(name: String, note: String?, count: Int, score: Double, bonus: Int?, when: Date, flag: Bool, level: OracleLevel, kind: OracleKind?) {
        self.name = name
        self.note = note
        self.count = count
        self.score = score
        self.bonus = bonus
        self.when = when
        self.flag = flag
        self.level = level
        self.kind = kind
    }
}

@Model final class OracleGroup {
    var name: String
    var archived: Bool
    @Relationship(deleteRule: .nullify, inverse: \OracleItem.group) var items: [OracleItem] = []
    init(name: String, archived: Bool) {
        self.name = name
        self.archived = archived
    }
}

@Model final class OracleLabel {
    var name: String
    var weight: Int
    var items: [OracleItem] = []
    init(name: String, weight: Int) {
        self.name = name
        self.weight = weight
    }
}

enum OracleLevel: Int, Codable, CaseIterable {
    case low = 0, mid = 1, high = 2
}

enum OracleKind: String, Codable, CaseIterable {
    case alpha, beta, gamma
}

/// The values the generator draws from, for the stored data and the predicates alike, so that
/// bounds equal to stored values, −0 against +0, NaN and the extremes meet often. Strings are NFC:
/// Swift equates canonically equivalent strings where stores compare bytes, a documented difference
/// (docs/queries.md, "Order") that the oracle therefore does not draw.
enum OraclePools {
    static let strings = ["", "a", "A", "apple", "Apple", "apricot", "b", "banana", "é", "zebra", "Zürich", "日本", "a%b", "a_b", "O'Brien", "x\ny", "tab\there", "💾"]
    static let fragments = ["", "a", "A", "p", "an", "é", "%", "_", "'", "\n", "ZÜ", "💾", "pp"]
    static let ints = [Int.min, -1_000, -5, -1, 0, 1, 2, 3, 10, 1_000, Int.max]
    static let doubles: [Double] = [-.infinity, -1e300, -1.5, -1, -0.0, 0.0, 1e-300, 0.5, 1, 2.5, 1e300, .infinity, .nan]
    static let dates: [Date] = [-86_400.0 * 365, -1, 0, 1, 1_700_000_000, 1_700_000_000.5, 4_000_000_000].map { Date(timeIntervalSince1970: $0) }
    static let groupNames = ["Work", "Home", "Old", "work"]
    static let labelNames = ["urgent", "later", "idea", "Idea", "x"]
}

/// A small seeded generator (xorshift64*), so a failing case can be replayed from its seed.
struct OracleRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x2545_F491_4F6C_DD1D | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}

/// A store on one backend holding random groups, labels and items (saved in insertion order).
struct OracleStore {
    static var types: [any PersistentModel.Type] { [OracleItem.self, OracleGroup.self, OracleLabel.self] }
    let fixture: ModelFixture
    let container: ModelContainer
    /// The items' identifiers in insertion order, which is the order of ties in a sorted fetch.
    let order: [PersistentIdentifier]

    init(_ backend: ModelBackend, items: Int, random: inout OracleRandom) throws {
        fixture = try ModelFixture(backend)
        container = try backend.open(fixture.directory, Self.types)
        let context = ModelContext(container)
        let groups = OraclePools.groupNames.map { OracleGroup(name: $0, archived: random.chance(40)) }
        let labels = OraclePools.labelNames.map { OracleLabel(name: $0, weight: random.pick(OraclePools.ints)) }
        groups.forEach(context.insert)
        labels.forEach(context.insert)
        var made: [OracleItem] = []
        for _ in 0..<items {
            let item = Self.randomItem(&random)
            context.insert(item)
            item.group = random.chance(25) ? nil : random.pick(groups)
            item.labels = labels.filter { _ in random.chance(30) }
            made.append(item)
        }
        try context.save()
        order = made.map(\.persistentModelID)
    }

    /// Every item in primary-key order (the order of an unsorted fetch), the groups and the labels,
    /// as objects of `context`.
    func loaded(_ context: ModelContext) throws -> (items: [OracleItem], groups: [OracleGroup], labels: [OracleLabel]) {
        let byID = Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<OracleItem>()).map { ($0.persistentModelID, $0) })
        return (order.map { byID[$0]! }, try context.fetch(FetchDescriptor<OracleGroup>()), try context.fetch(FetchDescriptor<OracleLabel>()))
    }

    /// An item of random values from the pools.
    static func randomItem(_ random: inout OracleRandom) -> OracleItem {
        OracleItem(
            name: random.pick(OraclePools.strings), note: random.chance(30) ? nil : random.pick(OraclePools.strings),
            count: random.pick(OraclePools.ints), score: random.pick(OraclePools.doubles),
            bonus: random.chance(40) ? nil : random.pick(OraclePools.ints), when: random.pick(OraclePools.dates),
            flag: random.chance(50), level: random.pick(OracleLevel.allCases), kind: random.chance(30) ? nil : random.pick(OracleKind.allCases))
    }
}
