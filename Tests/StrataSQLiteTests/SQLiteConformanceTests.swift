import StrataConformance
import StrataSQLite
import Testing

let sqlite = StoreFactory<SQLiteStore> { dir, schema in SQLiteStoreConfiguration(url: dir.appendingPathComponent("store.sqlite"), schema: schema) }

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: sqlite) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: sqlite) }
}
