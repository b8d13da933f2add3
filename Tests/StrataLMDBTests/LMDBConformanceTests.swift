import StrataConformance
import StrataLMDB
import Testing

let lmdb = StoreFactory<LMDBStore> { dir, schema in LMDBStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema) }

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: lmdb) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: lmdb) }
}
