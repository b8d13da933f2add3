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

/// The same store with its journal folded into the document once it passes 256 bytes (or half the
/// document): the suite's saves alternate between journal appends and folds, and its reopens replay
/// journals written after a fold, key counters included (issue 27; the default threshold, 1 MiB,
/// never folds in the suite).
let jsonFolding = StoreFactory<JSONStore> { dir, schema in
    JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5), journalThreshold: 256)
}

@Suite(.serialized) struct ConformanceWithFolds {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: jsonFolding) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
}
