import StrataConformance
import StrataMemory
import Testing

let memory = StoreFactory<MemoryStore> { dir, schema in MemoryStoreConfiguration(name: dir.path, schema: schema) } destroy: { MemoryStore.destroy(name: $0.path) }

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: memory) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: memory) }
}
