import StrataConformance
import StrataXML
import Testing

let xml = StoreFactory<XMLStore> { dir, schema in XMLStoreConfiguration(url: dir.appendingPathComponent("store.xml"), schema: schema, lockWait: .seconds(5)) }

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: xml) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: xml) }
}
