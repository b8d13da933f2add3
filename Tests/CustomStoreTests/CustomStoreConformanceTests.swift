import CustomStoreExample
import StrataConformance
import StrataModel
import Testing

/// The suite's verdict on custom stores run through `CustomStoreAdapter`.
@Suite struct CustomStoreConformanceTests {
    /// WWDC24's JSON store breaks the rules it has no code for, and the suite says which.
    @Test func theWWDCStoreBreaksUniqueDeleteRuleAndAtomicityRules() {
        let results = ConformanceSuite.run(on: CustomStoreFactories.wwdcJSON)
        let failed = Set(results.filter { $0.outcome.label == "failed" }.map(\.category))
        #expect(failed.isSuperset(of: [.unique, .deleteRules, .atomicity]))
        #expect(ConformanceReport(backend: "wwdc-json", results: results).requiredFailed)
    }

    /// The same adapter over a store that does the work passes every case, so what the suite
    /// reports against the JSON store is the store's, not the adapter's.
    @Test func aCorrectStoreBehindTheAdapterPasses() {
        let results = ConformanceSuite.run(on: CustomStoreFactories.swiftDataMemory)
        #expect(results.count == ConformanceSuite.cases.count)
        // SwiftData's custom-store protocol has no migration hooks, so the adapter cannot apply a
        // schema migration (its migrateStore is the core's `unsupported` default): the migration
        // category (issue 26) is the one it fails, by design; every other case passes.
        let failed = results.filter { $0.outcome.label != "passed" && $0.category != .migration }
        #expect(failed.isEmpty, "\(failed.map { "\($0.caseID): \($0.outcome)" }.joined(separator: "\n"))")
    }
}
