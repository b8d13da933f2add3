import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

/// Primary keys anywhere in 1 ..< Int64.max: memory follows the number of records, never the keys,
/// and lookups, scans and in-place changes behave as on a dense store.
struct SparseKeyTests {
    static let schema = try! Schema {
        Entity("Item") { Attribute("name", .string) }
    }
    static var item: EntitySchema { schema.entity(named: "Item")! }

    static func record(_ name: String) -> StoredRecord { StoredRecord(attributes: [.string(name)], links: []) }

    @Test func hugeKeysCostWhatTheirRecordsCost() throws {
        var state = StoreState(schema: Self.schema, storeIdentifier: "s")
        let keys: [Int64] = [1, 2, 100_000_000, 1 << 40, .max - 1]
        for key in keys.reversed() { try state.load(Self.item, key: key, record: Self.record("k\(key)")) }
        try state.finishLoading()
        #expect(state.tables[0].records.allocatedSlots <= keys.count)
        #expect(state.nextPrimaryKey(Self.item) == .max)
        var visited: [Int64] = []
        state.forEachRecord(Self.item) { key, _ in visited.append(key); return true }
        #expect(visited == keys)
        let engine = RecordEngine(state: state)
        for key in keys {
            let found: [DefaultSnapshot] = try engine.fetch(FetchDescriptor(entity: "Item", predicate: .identifierIn([state.identifier(Self.item, key)])))
            #expect(found.first?.attributeValue(at: 0) == .string("k\(key)"))
        }
        #expect(try engine.fetch(FetchDescriptor(entity: "Item", predicate: .identifierIn([state.identifier(Self.item, 3)])), as: DefaultSnapshot.self).isEmpty)
    }

    @Test func spreadOutKeysStayCompact() {
        var records = PagedArray<StoredRecord>()
        for n in 0..<5_000 { records[Int64(n) * 1_000 + 7] = Self.record("") }
        #expect(records.count == 5_000)
        #expect(records.allocatedSlots == 5_000)
        // Churn: a dense run, then all but every 100th deleted, as insert/delete cycles leave it.
        var dense = PagedArray<StoredRecord>()
        for key in 1...30_000 as ClosedRange<Int64> { dense[key] = Self.record("") }
        #expect(dense.allocatedSlots <= 30_000 + 256)
        for key in 1...30_000 as ClosedRange<Int64> where key % 100 != 0 { dense[key] = nil }
        #expect(dense.count == 300)
        #expect(dense.allocatedSlots <= 300 * 16)
        for key in 1...30_000 as ClosedRange<Int64> { dense[key] = nil }
        #expect(dense.count == 0 && dense.allocatedSlots == 0)
    }

    @Test func pagesPreparedForABulkInsertEndDenseOnlyWhereFilled() {
        var records = PagedArray<StoredRecord>()
        for key in 1...10 as ClosedRange<Int64> { records[key] = Self.record("") }
        // 10 ..< 1,000: the first page (already there, compact) and the last (232 keys) both fill.
        records.prepareDensePages(for: 11..<1_000)
        for key in 11..<1_000 as Range<Int64> { records[key] = Self.record("k\(key)") }
        #expect(records.count == 999 && records[500]?.attributes == [.string("k500")])
        #expect(records.allocatedSlots == 4 * 256)
        // A run of 20 keys stays compact; keys at the very end of the key space do not overflow.
        records.prepareDensePages(for: 2_000..<2_020)
        records.prepareDensePages(for: (Int64.max - 300)..<Int64.max)
        for key in 2_000..<2_020 as Range<Int64> { records[key] = Self.record("") }
        for key in (Int64.max - 300)..<Int64.max { records[key] = Self.record("") }
        #expect(records.count == 999 + 20 + 300)
        #expect(records.allocatedSlots == 4 * 256 + 20 + 2 * 256)
    }

    @Test func behavesLikeADictionaryUnderRandomChurn() {
        var random = XorShift(state: 42)
        var array = PagedArray<Int>()
        var model: [Int64: Int] = [:]
        for step in 0..<20_000 {
            // Mostly a small dense range (pages flip between compact and dense), some far keys.
            let key: Int64 = random.next() % 8 == 0 ? Int64(random.next() % (1 << 50)) : Int64(random.next() % 3_000)
            if random.next() % 3 == 0 {
                array[key] = nil
                model[key] = nil
            } else {
                array[key] = step
                model[key] = step
            }
            if random.next() % 5 == 0 { array.modify(key) { $0 += 1 }; model[key].map { model[key] = $0 + 1 } }
            #expect(array[key] == model[key])
        }
        #expect(array.count == model.count)
        var visited: [(Int64, Int)] = []
        array.forEach { visited.append(($0, $1)); return true }
        #expect(visited.map(\.0) == model.keys.sorted())
        #expect(visited.allSatisfy { model[$0.0] == $0.1 })
    }
}

/// A small seeded generator (xorshift64*), so the random test repeats exactly.
struct XorShift {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
