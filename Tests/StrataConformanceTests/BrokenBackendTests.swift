import Foundation
import Strata
import StrataConformance
import Testing

/// The suite tests itself: each deliberately broken backend must fail the cases that guard against its flaw.
struct BrokenBackendTests {
    static func results<Flaw: StoreFlaw>(_ flaw: Flaw.Type) -> [ConformanceResult] {
        let factory = StoreFactory<BrokenStore<Flaw>> { dir, schema in BrokenConfiguration(name: dir.path, schema: schema) }
        return ConformanceSuite.run(on: factory)
    }

    /// The ids of the failed cases; also requires most cases to pass, so a flaw is caught by the
    /// cases aimed at it rather than by a wrapper that breaks everything.
    static func failed(_ results: [ConformanceResult]) -> Set<String> {
        let failed = Set(results.filter { if case .failed = $0.outcome { true } else { false } }.map(\.caseID))
        #expect(failed.count < results.count / 4, "too many failures for one flaw: \(failed.sorted())")
        return failed
    }

    @Test func catchesMissingCascade() {
        let failed = Self.failed(Self.results(NoCascade.self))
        #expect(failed.isSuperset(of: ["deleteRules.cascade-deletes-targets", "deleteRules.cascade-multi-level", "deleteRules.cascade-cycle-ends"]), "caught: \(failed.sorted())")
    }

    @Test func catchesReusedIdentifiers() {
        let failed = Self.failed(Self.results(ReusedIdentifiers.self))
        #expect(failed.contains("identifiers.never-reused-after-delete"), "caught: \(failed.sorted())")
    }

    @Test func catchesOverwriteOnCollision() {
        let failed = Self.failed(Self.results(OverwriteOnCollision.self))
        #expect(failed.isSuperset(of: ["unique.collision-with-stored", "unique.no-silent-overwrite"]), "caught: \(failed.sorted())")
    }

    @Test func catchesPartialSave() {
        let failed = Self.failed(Self.results(PartialSave.self))
        #expect(failed.contains("atomicity.failure-in-large-insert"), "caught: \(failed.sorted())")
    }

    @Test func catchesLostUpdates() {
        let failed = Self.failed(Self.results(WholeRecordUpdates.self))
        #expect(failed.isSuperset(of: ["partialUpdates.writes-listed-only", "partialUpdates.unlisted-relationships-kept", "partialUpdates.conflict-check-fails"]), "caught: \(failed.sorted())")
    }

    @Test func catchesUnstableTies() {
        let failed = Self.failed(Self.results(UnstableTies.self))
        #expect(failed.isSuperset(of: ["fetch.sort-ties-by-key", "fetch.sort-descending-ties"]), "caught: \(failed.sorted())")
    }

    /// A failed case's message quotes the rule the case checks, with its section, before the detail.
    static func expectRuleQuoted(_ results: [ConformanceResult], _ caseID: String) {
        guard let result = results.first(where: { $0.caseID == caseID }), case .failed(let message) = result.outcome,
            let testCase = ConformanceSuite.cases.first(where: { $0.id == caseID })
        else { Issue.record("\(caseID) did not fail"); return }
        #expect(message.hasPrefix("Rule: \(testCase.summary) (docs/store-contract.md \(testCase.section))\n"), "message: \(message)")
        print("[\(caseID)] \(message)")
    }

    @Test func catchesAsciiOnlyCaseFolding() {
        let results = Self.results(AsciiCaseFolding.self)
        let failed = Self.failed(results)
        #expect(failed.contains("fetch.insensitive-non-ascii"), "caught: \(failed.sorted())")
        Self.expectRuleQuoted(results, "fetch.insensitive-non-ascii")
    }

    @Test func catchesNegativeLimitOnTheIdentifierPath() {
        let results = Self.results(NegativeLimitIgnored.self)
        let failed = Self.failed(results)
        #expect(failed.contains("fetch.negative-window-by-identifier"), "caught: \(failed.sorted())")
        Self.expectRuleQuoted(results, "fetch.negative-window-by-identifier")
    }

    @Test func catchesMissingOwnChanges() {
        let results = Self.results(DropsOwnChanges.self)
        let failed = Self.failed(results)
        #expect(failed.contains("relationships.result-reports-own-changes"), "caught: \(failed.sorted())")
        Self.expectRuleQuoted(results, "relationships.result-reports-own-changes")
    }

    /// docs/store-contract.md names every registered case id.
    @Test func contractListsEveryCase() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let contract = try String(contentsOf: root.appendingPathComponent("docs/store-contract.md"), encoding: .utf8)
        let missing = ConformanceSuite.cases.map(\.id).filter { !contract.contains("`\($0)`") }
        #expect(missing.isEmpty, "case ids missing from docs/store-contract.md: \(missing)")
    }

    @Test func skipsOnlyOptionalCasesAndSaysWhy() {
        let results = Self.results(WithoutPersistence.self)
        let skipped = results.filter { if case .skipped = $0.outcome { true } else { false } }
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { !$0.isRequired }, "a required case was skipped")
        #expect(skipped.allSatisfy { if case .skipped(let why) = $0.outcome { why.contains("persistence") || why.contains("concurrentAccess") } else { false } })
        #expect(results.filter { $0.category == .persistence }.allSatisfy { $0.outcome.label == "skipped" })
        let reopen = results.first { $0.caseID == "identifiers.stable-across-reopen" }
        #expect(reopen?.outcome.label == "failed", "a required case needing a missing capability must fail")
    }

    /// A backend that corrupts one value fails the run: `anyFailed` (the CLI's exit status) is set
    /// whatever the case's category, and the failure names the round-trip that caught it.
    @Test func corruptedValueFailsTheRun() {
        let results = Self.results(CanonicalNaN.self)
        let failed = Self.failed(results)
        #expect(failed.contains("roundTrip.double-nan-payload"), "caught: \(failed.sorted())")
        #expect(ConformanceReport(backend: "canonical-nan", results: results).anyFailed)
    }

    /// Skips are listed in the report's summary with their reason; a run with only skips passes.
    @Test func theSummaryListsSkipsAndWhy() {
        let report = ConformanceReport(backend: "no-persistence", results: Self.results(WithoutPersistence.self))
        #expect(report.anyFailed, "required reopen cases fail")
        #expect(report.skippedSummary.contains { $0.hasPrefix("Skipped (the backend does not declare persistence): ") && $0.contains("persistence.") })
        #expect(report.text.contains("Skipped (the backend does not declare persistence): "))
    }

    /// Round-trips are required; a value type leaves them only through a declared capability: a
    /// backend without `largeValues` has exactly the large-value round-trips skipped, with the
    /// capability in the report, and passes the rest.
    @Test func roundTripsAreRequiredExceptThroughACapability() {
        let roundTrips = ConformanceSuite.cases.filter { $0.category == .roundTrip }
        #expect(!roundTrips.isEmpty && roundTrips.allSatisfy { $0.isRequired })
        let report = ConformanceReport(backend: "no-large-values", results: Self.results(WithoutLargeValues.self))
        let skipped = report.results.filter { $0.outcome.label == "skipped" }.map(\.caseID)
        #expect(Set(skipped) == ["roundTrip.string-long", "roundTrip.data-large"], "skipped: \(skipped)")
        // The broken-store wrapper does not forward partial updates, so only round-trips are asked about.
        let failedRoundTrips = report.results.filter { $0.category == .roundTrip && $0.outcome.label == "failed" }.map(\.caseID)
        #expect(failedRoundTrips.isEmpty, "failed: \(failedRoundTrips)")
        #expect(report.skippedSummary == ["Skipped (the backend does not declare largeValues): roundTrip.string-long, roundTrip.data-large"])
    }

    @Test func registryIsWellFormed() {
        let ids = ConformanceSuite.cases.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate case ids")
        #expect(ids.count >= 100)
        for category in ConformanceCategory.allCases {
            #expect(ConformanceSuite.cases.contains { $0.category == category }, "no case in \(category)")
        }
    }
}
