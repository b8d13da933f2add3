import Foundation
@_spi(StrataEngine) import Strata
import Synchronization
import StrataConformance
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Readers beside a writer, two writing processes, and a writer killed mid-save.
struct LMDBConcurrencyTests {
    static let tagEntity = FixtureDomain.schema.entity(named: "Tag")!

    static func tags(_ prefix: String, _ range: Range<Int>) throws -> [LMDBSnapshot] {
        try range.map { try LMDBSnapshot.inserting(tagEntity, values: ["name": .string("\(prefix)\($0)")]) }
    }

    /// What a reader saw in one fetch: how many tags and how many of them are new.
    struct Observation: Sendable, Equatable {
        let count: Int
        let new: Int
    }

    @Test func readersDuringALargeSaveSeeTheOldOrTheNewStateNeverAMix() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try LMDBFileTests.open(dir.appendingPathComponent("store"))
        let old = try store.save(SaveRequest(inserted: try Self.tags("old-", 0..<2_000)))
        // The large save inserts 20,000 tags and deletes half of the old ones.
        let doomed = old.remappedIdentifiers.permanentIdentifiers.prefix(1_000).map {
            LMDBSnapshot(entity: Self.tagEntity, persistentIdentifier: $0, attributes: [], relationships: [])
        }
        let request = SaveRequest(inserted: try Self.tags("new-", 0..<20_000), deleted: Array(doomed))
        @Sendable func observe() throws -> Observation {
            let all = try store.fetch(FetchDescriptor(entity: "Tag"))
            return Observation(count: all.count, new: all.filter { ($0["name"].string ?? "").hasPrefix("new-") }.count)
        }
        let before = Observation(count: 2_000, new: 0), after = Observation(count: 21_000, new: 20_000)

        // Inside the save, after every write and before the commit: readers on other threads must
        // neither wait for the writer nor see any of its writes.
        let inside = Mutex<[Observation]>([])
        store.beforeCommit.withLock {
            $0 = {
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    let seen = (try? observe()) ?? Observation(count: -1, new: -1)
                    inside.withLock { $0.append(seen) }
                }
            }
        }
        // Free-running readers throughout: every fetch is one state or the other.
        let done = Mutex(false)
        let seen = Mutex<[Observation]>([])
        let readers = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: readers) {
                while true {
                    let finished = done.withLock { $0 }
                    let o = (try? observe()) ?? Observation(count: -1, new: -1)
                    seen.withLock { $0.append(o) }
                    if finished { return }
                }
            }
        }
        _ = try store.save(request)
        done.withLock { $0 = true }
        readers.wait()
        store.beforeCommit.withLock { $0 = nil }

        #expect(inside.withLock { $0 } == Array(repeating: before, count: 4))
        let observations = seen.withLock { $0 }
        #expect(observations.allSatisfy { $0 == before || $0 == after }, "a reader saw a mix: \(Set(observations.map { "\($0.count)/\($0.new)" }))")
        #expect(observations.last == after, "a read after the commit sees the new state")
    }

    @Test func twoProcessesWriteInTurnAndSeeEachOthersSaves() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The other process saves generations (every Sample's int = g, tag "g<g>") and prints each.
        let writer = try ChildProcess(BuiltProducts.strata, ["crash-writer", "--backend", "lmdb", "--path", dir.path, "--saves", "150"])
        var reported = -1
        while reported < 3, let line = writer.next() {
            if line.hasPrefix("saved "), let g = Int(line.dropFirst(6)) { reported = g }
        }
        try #require(reported >= 3, "the other process never reported a save")

        let store = try LMDBFileTests.open(dir.appendingPathComponent("store"))
        // Its committed saves are visible here, whole. The other process keeps saving, so each fetch
        // is its own snapshot (CrashWorkload.check's three fetches may straddle a save): the samples
        // are one generation g ≥ 3, and a later fetch holds at least the tags g0…g.
        let samples = try store.fetch(FetchDescriptor(entity: "Sample"))
        let generations = Set(samples.compactMap { $0["int"].int })
        #expect(samples.count == CrashWorkload.samples && generations.count == 1, "samples of generations \(generations.sorted())")
        let g = Int(try #require(generations.first))
        #expect(g >= 3)
        let seenTags = Set(try store.fetch(FetchDescriptor(entity: "Tag")).compactMap { $0["name"].string })
        #expect(seenTags.isSuperset(of: (0...g).map { "g\($0)" }), "generation \(g) with tags \(seenTags.sorted())")
        // The unique constraint holds across processes: the other one saved tag "g2".
        let taken = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: try Self.tags("g", 2..<3))) }
        #expect(taken.code == .uniqueConstraintViolation)
        // This process writes while the other one does: each save waits its turn, none is lost.
        for i in 0..<20 { _ = try store.save(SaveRequest(inserted: try Self.tags("mine-", i..<(i + 1)))) }
        while let line = writer.next() {
            if line.hasPrefix("saved "), let g = Int(line.dropFirst(6)) { reported = g }
        }
        #expect(writer.finish() == 0)
        #expect(reported == 150)

        let final = try store.fetch(FetchDescriptor(entity: "Sample"))
        #expect(Set(final.map { $0["int"] }) == [.int(150)])
        let names = Set(try store.fetch(FetchDescriptor(entity: "Tag")).compactMap { $0["name"].string })
        #expect(names == Set((0...150).map { "g\($0)" } + (0..<20).map { "mine-\($0)" }))
    }

    @Test func aKilledWriterAlwaysLeavesTheOldOrTheNewState() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CrashWorkload.killBuiltWriter(backend: "lmdb", in: dir) {
            try CrashWorkload.check(try LMDBFileTests.open(dir.appendingPathComponent("store")))
        }
    }
}
