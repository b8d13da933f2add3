import StrataConformance
import StrataMemory
import Testing

let memory = StoreFactory<MemoryStore> { dir, schema in MemoryStoreConfiguration(name: dir.path, schema: schema) } destroy: { MemoryStore.destroy(name: $0.path) }

/// Serialized, so `everyCaseRan` (declared last) runs after every case and only checks.
@Suite(.serialized) struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: memory) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: memory) }
}
