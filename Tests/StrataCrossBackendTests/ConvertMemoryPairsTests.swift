import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance
import Testing

/// The memory backend's pairs through the in-process API (`strata convert` cannot reach a store
/// that lives in one process): a random store of the differential schema in memory is converted
/// into every other built-in backend (PostgreSQL too when `make test` names its server), and that
/// copy back into a new memory store, each with the verification on; `strata dump` of all three is
/// the same. The fixture store's memory pairs are in `ConvertTests`.
///
/// `make test` runs it at 2,000 records (a debug build converts about 200 records/s into an
/// SQLite store that syncs every save, so 10,000 would add about five minutes);
/// `make convert-pairs` at 10,000 (`STRATA_CONVERT_MEMORY_RECORDS`; docs/convert.md, "Verified").
struct ConvertMemoryPairsTests {
    /// About how many records the random store is written with (2,000 unless the variable says).
    static var records: Int {
        ProcessInfo.processInfo.environment["STRATA_CONVERT_MEMORY_RECORDS"].flatMap(Int.init) ?? 2_000
    }

    /// Every built-in backend but memory: each is the destination of one pair and the source of the other.
    static let others = ConvertTests.backends.filter { $0.name != "memory" }.map(\.name)

    @Test(arguments: others) func randomStoreGoesThroughMemoryBothWays(with name: String) throws {
        let memory = try #require(BuiltinStores.named("memory")), other = try #require(BuiltinStores.named(name))
        let source = ConvertTests.folder("memory-source-\(name)"), copy = ConvertTests.folder("memory-to-\(name)")
        let back = ConvertTests.folder("memory-from-\(name)")
        defer { ConvertTests.destroy(memory, source, back); ConvertTests.destroy(other, copy) }
        var written = RandomStore.Written(records: 0, deleted: 0)
        try ConvertTests.write(memory.factory, source, DifferentialSchema.schema) {
            written = try RandomStore.write(into: $0, records: Self.records, seed: 32, deleteEvery: 20)
        }
        #expect(written.records > Self.records * 9 / 10 && written.deleted > Self.records / 40, "the store has gaps in its keys")
        let expected = try ConvertTests.dump(memory, source)

        // Batches of 500 at 2,000 records, so that every entity takes several; 2,000 (the command's default) above.
        let options = StoreCopy.Options(batchSize: Self.records > 5_000 ? 2_000 : 500)
        let there = try StoreConversion.convert(from: memory, source, to: other, copy, options: options)
        #expect(there.verified && there.records == written.records && there.keyMap.keepsKeys, "memory → \(name)")
        #expect(try ConvertTests.dump(other, copy) == expected, "memory → \(name): the dumps differ")

        let home = try StoreConversion.convert(from: other, copy, to: memory, back, options: options)
        #expect(home.verified && home.records == written.records && home.keyMap.keepsKeys, "\(name) → memory")
        #expect(try ConvertTests.dump(memory, back) == expected, "\(name) → memory: the dumps differ")
        print("memory ⇄ \(name): \(written.records) records, \(there.links) links, both ways verified")
    }
}
