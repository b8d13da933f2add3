import Foundation
import Strata

/// Saves that make a crash visible: generation g sets `int = g` on every `Sample` and inserts the
/// tag `"g<g>"` in one save. Whatever moment a writer is killed at, a store that keeps the contract
/// reopens with every sample at one generation g and exactly the tags g0 … g<g>.
///
/// With `largeEvery: k`, every k-th generation is also a large save: it rewrites `bulkCount` notes
/// (updating most, deleting and inserting the rest), so kills also land in the middle of saves of
/// thousands of records. The notes then all carry the text of the last large generation.
public enum CrashWorkload {
    /// How many samples each generation rewrites.
    public static let samples = 40
    /// How many notes a large save writes.
    public static let bulkCount = 2_000
    /// How many of the notes a large save deletes and inserts anew (the rest it updates).
    static let bulkReplaced = 250

    /// Continues from the store's current generation for `saves` more saves, printing `saved <g>`
    /// after each; every `largeEvery`-th generation is a large save (0: none).
    public static func run<Store: DataStore>(_ store: Store, saves: Int, largeEvery: Int = 0) throws {
        let sampleEntity = try store.schema.requireEntity("Sample")
        let tagEntity = try store.schema.requireEntity("Tag")
        var current = try store.fetch(FetchDescriptor(entity: "Sample"))
        var bulk = largeEvery > 0 ? try store.fetch(FetchDescriptor(entity: "Note")) : []
        var generation = try check(store, largeEvery: largeEvery)
        if current.isEmpty {
            let fresh = try (0..<samples).map { try Store.Snapshot.inserting(sampleEntity, values: ["label": .string("s\($0)"), "int": 0, "string": .string(String(repeating: "x", count: 2_000))]) }
            let tag = try Store.Snapshot.inserting(tagEntity, values: ["name": "g0"])
            _ = try store.save(SaveRequest(inserted: fresh + [tag]))
            current = try store.fetch(FetchDescriptor(entity: "Sample"))
            generation = 0
            report(0)
        }
        for _ in 0..<saves {
            generation += 1
            let updated = try current.map { try $0.updating(["int": .int(Int64(generation))]) }
            let tag = try Store.Snapshot.inserting(tagEntity, values: ["name": .string("g\(generation)")])
            if largeEvery > 0, generation % largeEvery == 0 {
                let (inserted, rewritten, deleted) = try bulkChanges(store, bulk, generation)
                _ = try store.save(SaveRequest(inserted: [tag] + inserted, updated: updated + rewritten, deleted: deleted))
                bulk = try store.fetch(FetchDescriptor(entity: "Note"))
            } else {
                _ = try store.save(SaveRequest(inserted: [tag], updated: updated))
            }
            current = updated
            report(generation)
        }
    }

    /// The notes a large save of `generation` writes: all new the first time, then most updated
    /// and `bulkReplaced` of them replaced by new ones.
    private static func bulkChanges<Store: DataStore>(_ store: Store, _ bulk: [Store.Snapshot], _ generation: Int) throws -> (inserted: [Store.Snapshot], updated: [Store.Snapshot], deleted: [Store.Snapshot]) {
        let note = try store.schema.requireEntity("Note")
        let text = Value.string(bulkText(generation))
        let replaced = bulk.isEmpty ? bulkCount : bulkReplaced
        let inserted = try (0..<replaced).map { _ in try Store.Snapshot.inserting(note, values: ["text": text]) }
        let kept = bulk.dropFirst(bulk.isEmpty ? 0 : bulkReplaced)
        return (inserted, try kept.map { try $0.updating(["text": text]) }, Array(bulk.prefix(bulk.isEmpty ? 0 : bulkReplaced)))
    }

    private static func bulkText(_ generation: Int) -> String {
        "bulk g\(generation) " + String(repeating: "n", count: 100)
    }

    private static func report(_ generation: Int) {
        FileHandle.standardOutput.write(Data("saved \(generation)\n".utf8))
    }

    /// The generation a store holds, or throws `WorkloadError` if it holds a mix of two (or its
    /// notes are not those of the last large save, for a writer run with `largeEvery`). For a store
    /// nobody is writing to (a writer killed or finished): its three fetches are three snapshots.
    @discardableResult
    public static func check<Store: DataStore>(_ store: Store, largeEvery: Int = 0) throws -> Int {
        let samples = try store.fetch(FetchDescriptor(entity: "Sample"))
        let tags = try store.fetch(FetchDescriptor(entity: "Tag", sortBy: [SortKey("name")]))
        let notes = largeEvery > 0 ? try store.fetch(FetchDescriptor(entity: "Note")) : []
        if samples.isEmpty {
            guard tags.isEmpty, notes.isEmpty else { throw WorkloadError("\(tags.count) tags and \(notes.count) notes but no samples") }
            return -1
        }
        let generations = Set(try samples.map { try $0.value("int").int ?? -1 })
        guard generations.count == 1, let g = generations.first else { throw WorkloadError("samples of several generations: \(generations.sorted())") }
        guard samples.count == Self.samples else { throw WorkloadError("\(samples.count) samples, expected \(Self.samples)") }
        let names = Set(try tags.map { try $0.value("name").string ?? "" })
        guard names == Set((0...Int(g)).map { "g\($0)" }) else { throw WorkloadError("generation \(g) with tags \(names.sorted())") }
        if largeEvery > 0 {
            let lastLarge = Int(g) / largeEvery * largeEvery
            let texts = Set(try notes.map { try $0.value("text").string ?? "" })
            if lastLarge == 0 {
                guard notes.isEmpty else { throw WorkloadError("generation \(g) holds \(notes.count) notes before any large save") }
            } else {
                guard notes.count == bulkCount, texts == [bulkText(lastLarge)] else {
                    throw WorkloadError("generation \(g) holds \(notes.count) notes of \(texts.count) generation(s) (\(texts.map { String($0.prefix(12)) }.sorted())); expected \(bulkCount) of the large save g\(lastLarge)")
                }
            }
        }
        try checkHistory(store, generation: Int(g))
        return Int(g)
    }

    /// History and data agree: a store that declares `history` (its writer records: `strata
    /// crash-writer` opens it with `recordsHistory`) holds exactly one transaction per committed
    /// generation, numbered in rising order, the last one inserting tag g<g> and, after generation 0,
    /// setting every sample's `int` to g. A killed save left neither data nor history.
    static func checkHistory<Store: DataStore>(_ store: Store, generation g: Int) throws {
        guard store.capabilities.contains(.history), let history = store as? any HistoryRecordingStore else { return }
        let transactions = try history.fetchHistory(HistoryQuery())
        guard transactions.count == g + 1 else {
            throw WorkloadError("generation \(g) but \(transactions.count) history transaction(s), the last #\(transactions.last?.token.transaction ?? 0)")
        }
        // Numbers rise in commit order; a save killed after taking its number may leave it unused
        // (docs/store-contract.md, "Tokens"), so they need not be 1 … g + 1.
        let numbers = transactions.map(\.token.transaction)
        if let back = zip(numbers, numbers.dropFirst()).first(where: { $0 >= $1 }) {
            throw WorkloadError("history numbers do not rise: #\(back.0) then #\(back.1)")
        }
        guard let last = transactions.last else { return }
        guard last.changes.contains(where: { $0.kind == .insert && $0.identifier.entityName == "Tag" }) else {
            throw WorkloadError("the last history transaction (#\(last.token.transaction)) inserts no tag")
        }
        let updates = last.changes.filter { $0.kind == .update && $0.identifier.entityName == "Sample" }
        guard g == 0 || (updates.count == Self.samples && updates.allSatisfy { $0.attributes.contains { $0.name == "int" && $0.new == .int(Int64(g)) } }) else {
            throw WorkloadError("the last history transaction updates \(updates.count) samples, not every sample to generation \(g)")
        }
    }
}
