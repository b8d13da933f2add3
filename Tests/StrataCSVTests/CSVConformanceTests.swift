import StrataCSV
import StrataConformance
import Testing

let csv = StoreFactory<CSVStore> { dir, schema in CSVStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema, lockWait: .seconds(5)) }

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: csv) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: csv) }
}
