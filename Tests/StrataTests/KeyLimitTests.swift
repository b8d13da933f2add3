import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

/// Running out of primary keys is a clear error, never an overflow trap; a stored key outside the
/// range is damage.
struct KeyLimitTests {
    @Test func theLastKeyIsAssignedThenInsertsFailClearly() throws {
        var state = StoreState(schema: SparseKeyTests.schema, storeIdentifier: "s")
        state.setNextPrimaryKey(SparseKeyTests.item, atLeast: .max - 1)
        let engine = RecordEngine(state: state)
        let first = try DefaultSnapshot.inserting(SparseKeyTests.item, values: ["name": "last"])
        let result = try engine.save(SaveRequest(inserted: [first]))
        #expect(result.remappedIdentifiers[first.persistentIdentifier]?.primaryKey == Int64.max - 1)
        let next = try DefaultSnapshot.inserting(SparseKeyTests.item, values: ["name": "one too many"])
        let error = try #require(throws: StrataError.self) { try engine.save(SaveRequest(inserted: [next])) }
        #expect(error.code == .keysExhausted)
        #expect(try engine.fetchCount(FetchDescriptor(entity: "Item")) == 1)
        // A counter already at the limit (read from a file) is the same error, not a trap.
        var full = StoreState(schema: SparseKeyTests.schema, storeIdentifier: "s")
        full.setNextPrimaryKey(SparseKeyTests.item, atLeast: .max)
        #expect(throws: StrataError.self) { try RecordEngine(state: full).save(SaveRequest(inserted: [next])) }
    }

    @Test func aStoredKeyOutsideTheRangeIsCorrupt() {
        var state = StoreState(schema: SparseKeyTests.schema, storeIdentifier: "s")
        for key: Int64 in [.max, 0, -5] {
            let error = #expect(throws: StrataError.self) { try state.load(SparseKeyTests.item, key: key, record: SparseKeyTests.record("x")) }
            #expect(error?.code == .corruptStore)
        }
    }
}
