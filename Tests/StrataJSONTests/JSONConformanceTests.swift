import StrataConformance
import StrataJSON
import Testing

let json = StoreFactory<JSONStore> { dir, schema in JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5)) }

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: json) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: json) }
}
