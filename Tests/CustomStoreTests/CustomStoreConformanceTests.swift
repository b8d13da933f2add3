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

    /// The framework trusts a store that answers a predicate (as SwiftData does), so the suite sees
    /// exactly what the store returns: a store that says it filtered and did not fails the
    /// suite's filter cases, while the same store asking the framework to filter passes them.
    @Test func theSuiteCatchesAStoreThatFiltersWrongly() {
        func factory(ignoring: Bool) -> StoreFactory<CustomStoreAdapter<RecordingStore>> {
            StoreFactory { directory, schema in
                CustomStoreConfiguration(
                    RecordingStoreConfiguration(name: directory.path, refusesPredicates: !ignoring, refusesSorts: true, ignoreWhatItAnswers: ignoring),
                    schema: schema, capabilities: [.persistence])
            }
        }
        let filters: Set<String> = ["fetch.equal", "fetch.less", "fetch.contains", "fetch.and-or-not"]
        let cases = ConformanceSuite.cases.filter { filters.contains($0.id) }
        #expect(cases.count == filters.count)
        let refusing = ConformanceSuite.run(on: factory(ignoring: false), cases: cases)
        #expect(refusing.allSatisfy { $0.outcome.label == "passed" }, "\(refusing.map { "\($0.caseID): \($0.outcome)" })")
        let ignoring = ConformanceSuite.run(on: factory(ignoring: true), cases: cases)
        #expect(ignoring.allSatisfy { $0.outcome.label == "failed" }, "\(ignoring.map { "\($0.caseID): \($0.outcome)" })")
    }

    /// The same adapter over a store that does the work passes every case outside the migration
    /// category, so what the suite reports against the JSON store is the store's, not the
    /// adapter's.
    ///
    /// Migration is refused on purpose: a SwiftData-shaped store migrates in its own
    /// `init(_:migrationPlan:)` (which receives the container's plan), and its data is in a form
    /// the framework cannot read the schema of, so the adapter's `recordedSchema` / `migrateStore`
    /// throw `unsupported` saying so, and every migration case reports that reason (docs/models.md,
    /// "Custom stores"). This test fails if that changes in either direction.
    @Test func aCorrectStoreBehindTheAdapterPasses() {
        let results = ConformanceSuite.run(on: CustomStoreFactories.swiftDataMemory)
        #expect(results.count == ConformanceSuite.cases.count)
        // History and chosen keys are optional: the adapter declares neither capability, so their cases are skipped.
        let failed = results.filter { $0.outcome.label != "passed" && $0.category != .migration && !([.history, .chosenKeys].contains($0.category) && $0.outcome.label == "skipped") }
        #expect(failed.isEmpty, "\(failed.map { "\($0.caseID): \($0.outcome)" }.joined(separator: "\n"))")
        let migration = results.filter { $0.category == .migration }
        #expect(!migration.isEmpty)
        // Refused before any store work (lightweight inference), so it passes on every store.
        let refusedByTheFramework: Set<String> = ["migration.needs-code-refused"]
        #expect(Set(migration.filter { $0.outcome.label == "passed" }.map(\.caseID)) == refusedByTheFramework)
        let unexplained = migration.filter {
            !refusedByTheFramework.contains($0.caseID) && !("\($0.outcome)".contains("unsupported") && "\($0.outcome)".contains("init(_:migrationPlan:)"))
        }
        #expect(unexplained.isEmpty, "\(unexplained.map { "\($0.caseID): \($0.outcome)" }.joined(separator: "\n"))")
    }
}
