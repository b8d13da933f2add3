/// How a copy (`StoreCopy`) numbered the records of its destination: per entity, runs of
/// consecutive source keys and the destination key each run starts at.
///
/// A fresh store hands out keys 1, 2, 3… in insert order and the copy inserts in key order, so a
/// source whose keys have no gaps keeps every key (`keepsKeys`); after the first gap (a deleted
/// record) the keys that follow move down. The map is small: one run per gap, not one entry per record.
public struct StoreKeyMap: Sendable, Hashable {
    /// Consecutive source keys `source ..< source + count` that became `destination ..< destination + count`.
    public struct Run: Sendable, Hashable {
        /// The first source key of the run.
        public var source: Int64
        /// The destination key of `source`.
        public var destination: Int64
        /// How many consecutive keys the run covers.
        public var count: Int64
    }

    /// The runs of each entity, by entity name, in ascending key order.
    public private(set) var runs: [String: [Run]] = [:]

    /// An empty map.
    public init() {}

    /// Whether every record kept its primary key.
    public var keepsKeys: Bool { runs.values.allSatisfy { $0.allSatisfy { $0.source == $0.destination } } }

    /// The entities whose records changed keys, in name order.
    public var renumberedEntities: [String] {
        runs.filter { !$0.value.allSatisfy { $0.source == $0.destination } }.keys.sorted()
    }

    /// Records that source `key` of `entity` became `destination`; keys must come in ascending order.
    public mutating func append(_ entity: String, source key: Int64, destination: Int64) {
        if var last = runs[entity]?.last, last.source + last.count == key, last.destination + last.count == destination {
            last.count += 1
            runs[entity]![runs[entity]!.count - 1] = last
        } else {
            runs[entity, default: []].append(Run(source: key, destination: destination, count: 1))
        }
    }

    /// The destination key of source `key` of `entity`, or `nil` when the copy holds no such record
    /// (the source held none: a dangling reference).
    public func destinationKey(_ entity: String, _ key: Int64) -> Int64? {
        guard let list = runs[entity] else { return nil }
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].source + list[mid].count <= key { low = mid + 1 } else { high = mid }
        }
        guard low < list.count, list[low].source <= key else { return nil }
        return list[low].destination + (key - list[low].source)
    }

    /// The map as CSV, one line per run: `entity,source,destination,count` (what `strata convert`
    /// writes when keys changed).
    public var csv: String {
        var text = "entity,source,destination,count\n"
        for entity in runs.keys.sorted() {
            for run in runs[entity]! { text += "\(entity),\(run.source),\(run.destination),\(run.count)\n" }
        }
        return text
    }
}
