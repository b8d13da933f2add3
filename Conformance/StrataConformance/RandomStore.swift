import Foundation
import Strata

/// A seeded random store of the differential schema (`DifferentialSchema`) of any size, for
/// `strata convert` tests and figures: notes in folders (ordered lists written in a shuffled
/// order), tags (many-to-many), note trees (self-reference), awkward values (NaN, −0, ±∞, Int64
/// extremes, NUL, newlines, emoji), and deleted records that leave gaps in the keys.
///
/// Written in saves of `batch` records, each referring only to records saved before, so memory
/// stays bounded by the batch whatever the size.
public enum RandomStore {
    /// What `write` made.
    public struct Written: Sendable {
        /// Records left in the store.
        public var records: Int
        /// Records deleted after they were written (each leaves a gap in its entity's keys).
        public var deleted: Int

        /// What a write made.
        public init(records: Int, deleted: Int) {
            self.records = records
            self.deleted = deleted
        }
    }

    /// Writes about `records` records into the empty `store` (open at `DifferentialSchema.schema`),
    /// deleting about one in `deleteEvery` notes afterwards (0: none, so every key stays dense).
    @discardableResult
    public static func write<Store: DataStore>(into store: Store, records: Int, seed: UInt64, deleteEvery: Int = 20, batch: Int = 5_000) throws -> Written {
        var rng = SplitMix(seed: seed)
        let schema = store.schema
        guard let folder = schema.entity(named: "Folder"), let note = schema.entity(named: "Note"), let tag = schema.entity(named: "Tag") else {
            throw StrataError(.invalidRequest, "RandomStore writes stores of DifferentialSchema.schema.")
        }
        let folders = max(1, records / 25), tags = max(1, records / 25)
        let notes = max(0, records - folders - tags)
        func id(_ entity: EntitySchema, _ key: Int64) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: store.identifier, entityName: entity.name, primaryKey: key)
        }
        // Folders and tags first (keys 1…n in a fresh store), then notes pointing at them and at earlier notes.
        for (entity, count) in [(folder, folders), (tag, tags)] {
            for start in stride(from: 0, to: count, by: batch) {
                let inserted = try (start..<min(count, start + batch)).map { n -> Store.Snapshot in
                    entity === folder
                        ? try Store.Snapshot.inserting(folder, values: ["name": .string("folder \(n)"), "rank": rng.chance(30) ? .null : .int(rng.pick(ints))])
                        : try Store.Snapshot.inserting(tag, values: ["label": .string("tag \(n) \(rng.pick(texts))"), "weight": rng.chance(30) ? .null : .double(rng.pick(doubles))])
                }
                _ = try store.save(SaveRequest(inserted: inserted))
            }
        }
        var written = 0
        while written < notes {
            let count = min(batch, notes - written)
            let inserted = try (0..<count).map { n -> Store.Snapshot in
                let number = written + n
                var links: [String: RelationshipValue] = [:]
                if !rng.chance(10) { links["folder"] = .toOne(id(folder, Int64(rng.below(folders)) + 1)) }
                links["tags"] = .toMany((0..<rng.below(4)).map { _ in id(tag, Int64(rng.below(tags)) + 1) })
                if written > 0, rng.chance(30) { links["parent"] = .toOne(id(note, Int64(rng.below(written)) + 1)) }
                return try Store.Snapshot.inserting(note, values: [
                    "title": .string("note \(number)"), "body": rng.chance(20) ? .null : .string(rng.pick(texts)),
                    "score": rng.chance(20) ? .null : .double(rng.pick(doubles)), "pinned": rng.chance(30) ? .null : .bool(rng.chance(50)),
                    "count": rng.chance(20) ? .null : .int(rng.pick(ints)),
                ], relationships: links)
            }
            _ = try store.save(SaveRequest(inserted: inserted))
            written += count
        }
        // Some folders' lists put in a shuffled order, so an ordered list is not key order.
        for start in stride(from: 1, through: folders, by: batch) {
            let keys = (Int64(start)...Int64(min(folders, start + batch - 1))).filter { _ in rng.chance(30) }
            let stored = try store.fetch(FetchDescriptor(entity: "Folder", predicate: .identifierIn(keys.map { id(folder, $0) })))
            let updated = try stored.map { try $0.updating(relationships: ["notes": .toMany(rng.shuffled(try $0.related("notes").targets))]) }
            if !updated.isEmpty { _ = try store.save(SaveRequest(updated: updated)) }
        }
        var deleted = 0
        if deleteEvery > 0, notes > 0 {
            let victims = Set((0..<notes / deleteEvery).map { _ in Int64(rng.below(notes)) + 1 }).sorted()
            for start in stride(from: 0, to: victims.count, by: batch) {
                let chunk = victims[start..<min(victims.count, start + batch)].map { id(note, $0) }
                let found = try store.fetch(FetchDescriptor(entity: "Note", predicate: .identifierIn(chunk)))
                let result = try store.save(SaveRequest(deleted: found))
                deleted += result.deletedIdentifiers.count
            }
        }
        return Written(records: folders + tags + notes - deleted, deleted: deleted)
    }

    private static let texts = ["", "plain", "with, comma", "line\nbreak", "quote \" and <&>", "nul\u{0}inside", "émoji 🦊", "  spaced  ", "tab\there"]
    private static let doubles: [Double] = [0, -0.0, 1.5, -2.25, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e-300]
    private static let ints: [Int64] = [0, 1, -1, .min, .max, 42, 1 << 40]

    /// A small seeded generator (SplitMix64): the same seed writes the same store.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func shuffled<T>(_ items: [T]) -> [T] {
            var items = items
            for i in items.indices.reversed() where i > 0 { items.swapAt(i, below(i + 1)) }
            return items
        }
    }
}
